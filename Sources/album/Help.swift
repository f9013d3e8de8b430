/// `album --help`, `album COMMAND --help`, generated from ``CommandLineSpec``.
enum Help {
    static var overview: String {
        let width = CommandLineSpec.commands.map { ($0.name.rawValue + " " + $0.arguments).count }.max() ?? 0
        let commands = CommandLineSpec.commands.map { command in
            "  " + pad(command.name.rawValue + " " + command.arguments, width) + "  " + command.summary
        }
        return """
            album \(CommandLineSpec.version) — save photos and videos into named albums

            USAGE: album [OPTIONS] COMMAND [ARGS...]

            COMMANDS:
            \(lines(commands))

            OPTIONS (every command):
            \(optionList(CommandLineSpec.globalOptions))

            ALBUMS:
            \(indent(CommandLineSpec.albumText))

            LIBRARY:
            \(indent(CommandLineSpec.libraryText))

            EXIT STATUS:
            \(indent(CommandLineSpec.exitText))

            Run `album COMMAND --help` for a command's options.
            """
    }

    static func text(for name: String) -> String? {
        guard let command = CommandLineSpec.command(name) else { return nil }
        var text = "USAGE: \(command.usage)\n\n\(command.details)"
        let options = command.options.map(CommandLineSpec.option(_:))
        if !options.isEmpty { text += "\n\nOPTIONS:\n" + optionList(options) }
        text += "\n\nAlso: --library PATH | --system, --catalog | --folders, --json, -q, -v (album --help)."
        return text
    }

    static func optionList(_ options: [CommandLineSpec.Option]) -> String {
        let width = options.map(\.synopsis.count).max() ?? 0
        return lines(options.map { "  " + pad($0.synopsis, width) + "  " + $0.help })
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    /// `text` with every line indented by two spaces.
    private static func indent(_ text: String) -> String {
        var bytes: [UInt8] = [0x20, 0x20]
        bytes.reserveCapacity(text.utf8.count * 2)
        for byte in text.utf8 {
            bytes.append(byte)
            if byte == 0x0A {
                bytes.append(0x20)
                bytes.append(0x20)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `parts` one per line. Written out rather than `joined(separator:)`, whose generic code makes
    /// the Swift runtime search the binary's protocol conformances before help is printed
    /// (Docs/performance.md, "Start-up").
    private static func lines(_ parts: [String]) -> String {
        var text = ""
        var first = true
        for part in parts {
            if !first { text += "\n" }
            text += part
            first = false
        }
        return text
    }
}
