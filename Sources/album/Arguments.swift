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
    /// Each option given, with its values (none for flags), in the order first given.
    /// Arrays, not a dictionary or a set: a command line has a handful of options, and without a
    /// `Dictionary<String, …>` `album --help` is printed before the Swift runtime first searches the
    /// binary's ~5 000 protocol conformances (Docs/performance.md, "Start-up").
    private(set) var given: [Given] = []

    typealias OptionName = CommandLineSpec.OptionName

    struct Given {
        let name: OptionName
        var values: [String]
    }

    var library: String? { value(.library) }
    var system: Bool { has(.system) }
    var album: String? { value(.album) }
    var json: Bool { has(.json) }
    var force: Bool { has(.force) }
    var permanently: Bool { has(.permanently) }
    var help: Bool { has(.help) }
    var version: Bool { has(.version) }
    var quiet: Bool { has(.quiet) }
    var verbose: Bool { has(.verbose) }
    var null: Bool { has(.null) }
    var recursive: Bool { has(.recursive) }
    var dryRun: Bool { has(.dryRun) }
    var includes: [String] { values(.include) }
    var excludes: [String] { values(.exclude) }

    /// Whether the option was given: `arguments.has(.all)`.
    func has(_ option: OptionName) -> Bool { given.contains { $0.name == option } }
    /// The value of an option that takes one: `arguments.value(.limit)`.
    func value(_ option: OptionName) -> String? { values(option).first }
    /// Every value of an option that may be repeated.
    func values(_ option: OptionName) -> [String] { given.first { $0.name == option }?.values ?? [] }

    struct UsageError: Error {
        let message: String
    }

    /// Parses `arguments` (without the program name). Options may appear before or after the command;
    /// `--` ends options.
    init(_ arguments: [String]) throws(UsageError) {
        try self.init(raw: arguments.map { Array($0.utf8) })
    }

    /// Parses the arguments' bytes as the system gave them. Short options may be bundled as POSIX
    /// has them: `-rn` is `-r -n`, and the last one of a bundle may take a value, attached (`-aTrips`)
    /// or as the next argument (`-ra Trips`).
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
        /// The next argument, as the value of `option`.
        func nextValue(for option: CommandLineSpec.Option) throws(UsageError) -> String {
            guard index < arguments.count else {
                throw UsageError(message: "\(option.long) needs a value (\(option.long) \(option.value ?? ""))")
            }
            index += 1
            return arguments[index - 1]
        }
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
            if argument.hasPrefix("--") {
                var name = argument
                var inlineValue: String?
                if let equals = argument.firstIndex(of: "=") {
                    name = String(argument[..<equals])
                    inlineValue = String(argument[argument.index(after: equals)...])
                }
                guard let option = CommandLineSpec.option(spelled: name) else {
                    throw Self.unknownOption(argument, name: name)
                }
                if option.value == nil {
                    guard inlineValue == nil else { throw UsageError(message: "\(option.long) does not take a value") }
                    try add(option, nil)
                } else if let inlineValue {
                    try add(option, inlineValue)
                } else {
                    try add(option, nextValue(for: option))
                }
                continue
            }
            // A long option written with one dash (`-album`) is a typo, not the bundle `-a lbum`.
            if argument.count > 2, CommandLineSpec.option(spelled: "-" + argument) != nil {
                throw Self.unknownOption(argument, name: argument)
            }
            // `-r`, or a bundle of them: `-rn`, `-ra TITLE`, `-aTITLE`.
            var letters = argument.dropFirst()
            while let letter = letters.first {
                letters = letters.dropFirst()
                let short = "-" + String(letter)
                guard let option = CommandLineSpec.option(spelled: short) else {
                    throw Self.unknownOption(argument, name: short)
                }
                guard option.value != nil else {
                    try add(option, nil)
                    continue
                }
                try add(option, letters.isEmpty ? nextValue(for: option) : String(letters))
                break
            }
        }
        for pair in CommandLineSpec.conflicts where has(pair.first) && has(pair.second) {
            throw UsageError(
                message: "\(pair.first) and \(pair.second) cannot be used together; choose one")
        }
    }

    /// Records `option` given (with `value` when it takes one): a repeatable one collects its
    /// values, any other may be given once.
    private mutating func add(_ option: CommandLineSpec.Option, _ value: String?) throws(UsageError) {
        guard let earlier = given.firstIndex(where: { $0.name == option.name }) else {
            given.append(Given(name: option.name, values: value.map { [$0] } ?? []))
            return
        }
        guard option.repeatable else {
            let first = given[earlier].values.first ?? ""
            let both = option.value == nil ? "" : " (\"\(first)\" and \"\(value ?? "")\")"
            throw UsageError(message: "\(option.long) was given twice\(both); give it once")
        }
        given[earlier].values += value.map { [$0] } ?? []
    }

    /// `unknown option NAME` for `argument` (`NAME in ARGUMENT` for a letter of a bundle), with the
    /// option it probably meant, or how to name a file that starts with `-`.
    private static func unknownOption(_ argument: String, name: String) -> UsageError {
        var message = "unknown option \(name)" + (name == argument ? "" : " in \(argument)")
        let longs = CommandLineSpec.allOptions.map(\.long)
        let near: String?
        if name.hasPrefix("--") {
            near = Suggestion.closest(to: name, among: longs)
        } else {
            // A letter in the wrong case (`-R`), or a long option with one dash missing (`-dryrun`).
            near =
                CommandLineSpec.allOptions.compactMap(\.short).first {
                    $0 != name && $0.lowercased() == name.lowercased()
                }
                ?? (argument.count > 3 ? Suggestion.closest(to: "-" + argument, among: longs) : nil)
        }
        if let near {
            message += " (did you mean \(near)?)"
        } else if argument.contains(".") || argument.contains("/") {
            message += "; for a file whose name starts with \"-\", write ./\(argument) or put -- before it"
        }
        return UsageError(message: message)
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
        let own = given.map(\.name).filter { name in
            !command.options.contains(name) && !CommandLineSpec.globalOptions.contains { $0.name == name }
        }
        if let first = own.map(\.rawValue).min() {
            throw UsageError(message: "\(first) does not apply to `album \(command.name)`")
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
