import AlbumKit
import Foundation

/// The parsed command line: `album [OPTIONS] COMMAND [OPTIONS] [ARGS...]`, checked against
/// ``CommandLineSpec``: unknown, repeated and conflicting options and the wrong number of arguments
/// are usage errors that say what to do.
struct Arguments {
    var command: String?
    var positional: [String] = []
    /// The bytes of each positional argument as given (file names need not be valid UTF-8).
    var positionalBytes: [[UInt8]] = []
    /// Arguments that are not valid UTF-8 (shown with U+FFFD in `positional` and option values).
    var invalidUTF8: [String] = []
    /// Each option given, by long name, with its values (none for flags), in the order first given.
    /// Arrays, not a dictionary or a set: a command line has a handful of options, and without a
    /// `Dictionary<String, …>` `album --help` is printed before the Swift runtime first searches the
    /// binary's ~5 000 protocol conformances (Docs/performance.md, "Start-up").
    private(set) var given: [Given] = []

    struct Given {
        let long: String
        var values: [String]
    }

    var library: String? { value("--library") }
    var system: Bool { has("--system") }
    var album: String? { value("--album") }
    var json: Bool { has("--json") }
    var force: Bool { has("--force") }
    var permanently: Bool { has("--permanently") }
    var help: Bool { has("--help") }
    var version: Bool { has("--version") }
    var quiet: Bool { has("--quiet") }
    var verbose: Bool { has("--verbose") }
    var null: Bool { has("--null") }
    var recursive: Bool { has("--recursive") }
    var dryRun: Bool { has("--dry-run") }
    var includes: [String] { values("--include") }
    var excludes: [String] { values("--exclude") }

    func has(_ long: String) -> Bool { given.contains { $0.long == long } }
    /// The value of an option that takes one.
    func value(_ long: String) -> String? { values(long).first }
    /// Every value of an option that may be repeated.
    func values(_ long: String) -> [String] { given.first { $0.long == long }?.values ?? [] }

    struct UsageError: Error {
        let message: String
    }

    /// Parses `arguments` (without the program name). Options may appear before or after the command;
    /// `--` ends options.
    init(_ arguments: [String]) throws(UsageError) {
        try self.init(raw: arguments.map { Array($0.utf8) })
    }

    /// Parses the arguments' bytes as the system gave them.
    init(raw: [[UInt8]]) throws(UsageError) {
        let arguments = raw.map { String(decoding: $0, as: UTF8.self) }
        // Decoding repairs invalid UTF-8 with U+FFFD, so the text's bytes differ from what was given.
        // Kept as they come (duplicates too): checking each against the list was quadratic for
        // thousands of Latin-1 file names.
        for (bytes, text) in zip(raw, arguments) where !text.utf8.elementsEqual(bytes) {
            invalidUTF8.append(text)
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
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = CommandLineSpec.option(name) else {
                var message = "unknown option \(argument)"
                if let near = Suggestion.closest(to: name, among: CommandLineSpec.allOptions.map(\.long)) {
                    message += " (did you mean \(near)?)"
                } else if argument.contains(".") || argument.contains("/") {
                    message += "; for a file whose name starts with \"-\", write ./\(argument) or put -- before it"
                }
                throw UsageError(message: message)
            }
            var value: String?
            if let placeholder = option.value {
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else {
                        throw UsageError(message: "\(option.long) needs a value (\(option.long) \(placeholder))")
                    }
                    value = arguments[index]
                    index += 1
                }
            } else if inlineValue != nil {
                throw UsageError(message: "\(option.long) does not take a value")
            }
            if let earlier = given.firstIndex(where: { $0.long == option.long }) {
                guard option.repeatable else {
                    let first = given[earlier].values.first ?? ""
                    let both = option.value == nil ? "" : " (\"\(first)\" and \"\(value ?? "")\")"
                    throw UsageError(message: "\(option.long) was given twice\(both); give it once")
                }
                given[earlier].values += value.map { [$0] } ?? []
            } else {
                given.append(Given(long: option.long, values: value.map { [$0] } ?? []))
            }
        }
        for pair in CommandLineSpec.conflicts where has(pair.first) && has(pair.second) {
            throw UsageError(message: "\(pair.first) and \(pair.second) cannot be used together; choose one")
        }
    }

    /// Refuses a title that is not valid UTF-8: it cannot name an album.
    func checkTitle(_ title: String) throws(AlbumError) {
        if invalidUTF8.contains(title) {
            throw AlbumError(
                .invalidAlbumTitle, "The album title \"\(title)\" is not valid UTF-8 text; nothing was changed.",
                albumTitle: title)
        }
        // Once, before any file is read: not once per file of a batch.
        if case .title = AlbumReference(title) {
            _ = try AlbumTitle(title)
        }
    }

    /// Checks that every option given applies to `command` and that it got the right number of
    /// arguments.
    func check(for command: CommandLineSpec.Command) throws(UsageError) {
        let global = Set(CommandLineSpec.globalOptions.map(\.long))
        for long in given.map(\.long).sorted() where !global.contains(long) && !command.options.contains(long) {
            throw UsageError(message: "\(long) does not apply to `album \(command.name)`")
        }
        let count = positional.count
        guard !command.arity.contains(count) else { return }
        let quoted = positional.map { "\"\($0)\"" }.joined(separator: " ")
        switch (command.arity.lowerBound, command.arity.upperBound) {
        case (0, 0):
            throw UsageError(message: "`album \(command.name)` takes no arguments, got \(quoted)")
        case (let low, _) where count < low:
            throw UsageError(message: "`album \(command.name)` needs \(command.arguments)")
        default:
            var message =
                "`album \(command.name)` takes \(command.arguments), got \(count) arguments: \(quoted)"
            if command.arity == 1...1 && command.arguments == "TITLE" {
                message +=
                    "\n(a title with spaces needs quotes: album \(command.name) \"\(positional.joined(separator: " "))\")"
            }
            throw UsageError(message: message)
        }
    }
}
