/// `album --help`, `album COMMAND --help`, generated from ``CommandLineSpec``.
enum Help {
    static var overview: String {
        let width = CommandLineSpec.commands.map { ($0.name + " " + $0.arguments).count }.max() ?? 0
        let commands = CommandLineSpec.commands.map { command in
            "  " + pad(command.name + " " + command.arguments, width) + "  " + command.summary
        }
        return """
            album \(CommandLineSpec.version) — save photos and videos into named albums

            USAGE: album [OPTIONS] COMMAND [ARGS...]

            COMMANDS:
            \(commands.joined(separator: "\n"))

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
        let options = command.options.compactMap(CommandLineSpec.option)
        if !options.isEmpty { text += "\n\nOPTIONS:\n" + optionList(options) }
        text += "\n\nAlso: --library PATH | --system, --catalog | --folders, --json, -q, -v (album --help)."
        return text
    }

    static func optionList(_ options: [CommandLineSpec.Option]) -> String {
        let width = options.map(\.synopsis.count).max() ?? 0
        return options.map { "  " + pad($0.synopsis, width) + "  " + $0.help }.joined(separator: "\n")
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    private static func indent(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
    }
}
