import Foundation

/// The parsed command line: `album [--library PATH] COMMAND [OPTIONS] [ARGS...]`.
struct Arguments {
    var command: String?
    var positional: [String] = []
    /// The bytes of each positional argument as given (file names need not be valid UTF-8).
    var positionalBytes: [[UInt8]] = []
    /// Arguments that are not valid UTF-8 (shown with U+FFFD in `positional` and `album`).
    var invalidUTF8: Set<String> = []
    var library: String?
    var system = false
    var album: String?
    var json = false
    var force = false
    var help = false

    /// Options that take a value.
    private static let valued: Set<String> = ["--library", "--album"]

    struct UsageError: Error {
        let message: String
    }

    /// Parses `arguments` (without the program name). Options may appear before or after the command;
    /// `--` ends options.
    init(_ arguments: [String]) throws(UsageError) {
        try self.init(raw: arguments.map { Array($0.utf8) })
    }

    /// Parses the arguments' bytes.
    init(raw: [[UInt8]]) throws(UsageError) {
        let arguments = raw.map { bytes in String(validating: bytes, as: UTF8.self) ?? String(decoding: bytes, as: UTF8.self) }
        for (bytes, text) in zip(raw, arguments) where String(validating: bytes, as: UTF8.self) == nil {
            invalidUTF8.insert(text)
        }
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                if command == nil {
                    command = argument
                } else {
                    positional.append(argument)
                    positionalBytes.append(raw[index - 1])
                }
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
            default: throw UsageError(message: "unknown option \(argument)")
            }
            if inlineValue != nil && !Self.valued.contains(name) {
                throw UsageError(message: "\(name) does not take a value")
            }
        }
    }
}
