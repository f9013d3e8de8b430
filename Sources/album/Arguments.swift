import Foundation

/// The parsed command line: `album [--library PATH] COMMAND [OPTIONS] [ARGS...]`.
struct Arguments {
    var command: String?
    var positional: [String] = []
    var library: String?
    var system = false
    var album: String?
    var json = false
    var force = false
    var help = false
    /// `init` and `copy` of a shared library: the object store, and where to copy from and to.
    var shared: [String: String] = [:]

    /// Options that take a value.
    private static let valued = Set(["--library", "--album"]).union(sharedOptions)
    private static let sharedOptions: Set<String> = [
        "--endpoint", "--bucket", "--prefix", "--region", "--from", "--to",
    ]

    struct UsageError: Error {
        let message: String
    }

    /// Parses `arguments` (without the program name). Options may appear before or after the command;
    /// `--` ends options.
    init(_ arguments: [String]) throws(UsageError) {
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                if command == nil { command = argument } else { positional.append(argument) }
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                guard index < arguments.count else { throw UsageError(message: "\(name) needs a value") }
                index += 1
                return arguments[index - 1]
            }
            switch name {
            case "--": optionsEnded = true
            case "--library", "-L": library = try value()
            case "--system": system = true
            case "--album", "-a": album = try value()
            case "--json": json = true
            case "--force", "-f": force = true
            case "--help", "-h": help = true
            case _ where Self.sharedOptions.contains(name): shared[String(name.dropFirst(2))] = try value()
            default: throw UsageError(message: "unknown option \(argument)")
            }
            if inlineValue != nil && !Self.valued.contains(name) {
                throw UsageError(message: "\(name) does not take a value")
            }
        }
    }
}
