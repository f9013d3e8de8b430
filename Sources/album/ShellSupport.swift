/// The man page and the bash, zsh and fish completions, generated from ``CommandLineSpec`` (the
/// same source as `--help`).
enum ShellSupport {
    // MARK: man page

    static var manPage: String {
        var lines = [
            ".TH ALBUM 1 \"\" \"album \(CommandLineSpec.version)\" \"User Commands\"",
            ".SH NAME",
            "album \\- save photos and videos into named albums",
            ".SH SYNOPSIS",
            ".B album",
            "[\\fIOPTIONS\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR...]",
            ".SH DESCRIPTION",
            roff(
                "album saves photos and videos into a named album of a photo library: AlbumKit's own catalog library, a folder of album folders, or your Pictures folder. The album is found, or created when missing, in the same step as the files are added; each file is printed as soon as it is safely saved."
            ),
            ".SH COMMANDS",
        ]
        for command in CommandLineSpec.commands {
            lines.append(".TP")
            lines.append(roff(command.usage))
            lines.append(paragraph(command.details))
        }
        lines.append(".SH OPTIONS")
        for option in CommandLineSpec.allOptions {
            lines.append(".TP")
            lines.append("\\fB" + roff(option.synopsis) + "\\fR")
            lines.append(roff(option.help))
        }
        lines += [
            ".SH ALBUMS", roff(CommandLineSpec.albumText),
            ".SH LIBRARY", roff(CommandLineSpec.libraryText),
            ".SH ENVIRONMENT",
            ".TP", "ALBUMKIT_LIBRARY", "The library when --library is not given.",
            ".TP", "XDG_DATA_HOME", "Where the default library lives (~/.local/share when unset).",
            ".TP", "XDG_CONFIG_HOME", "Where user-dirs.dirs names the Pictures folder for --system.",
            ".SH EXIT STATUS", roff(CommandLineSpec.exitText),
            ".SH EXAMPLES",
            ".nf",
            roff("album save --album \"Trips\" IMG_0001.HEIC clip.mp4"),
            roff("album import --album \"Trips\" ~/DCIM"),
            roff("find ~/Camera -name '*.jpg' -print0 | album save -0 --album Trips -"),
            roff("album show \"Trips\" --json"),
            ".fi",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text for roff to fill: source lines are joined, except indented ones (examples), which
    /// start a line of their own.
    private static func paragraph(_ text: String) -> String {
        var out: [String] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix(" ") {
                out += [".br", roff(String(line))]
            } else if let last = out.last, last != ".br", !last.hasPrefix(" ") {
                out[out.count - 1] = last + " " + roff(String(line))
            } else {
                out.append(roff(String(line)))
            }
        }
        return out.joined(separator: "\n")
    }

    /// Escapes roff: backslashes, and a leading `.` or `'`.
    private static func roff(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        // Characters beyond ASCII as roff's Unicode escapes, so any groff reads them (`man` would
        // convert UTF-8 itself, `groff` alone does not).
        var ascii = ""
        for scalar in escaped.unicodeScalars {
            if scalar.isASCII {
                ascii.unicodeScalars.append(scalar)
            } else {
                ascii += "\\[u" + String(format: "%04X", scalar.value) + "]"
            }
        }
        return ascii.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(".") || $0.hasPrefix("'") ? "\\&" + $0 : String($0) }
            .joined(separator: "\n")
    }

    // MARK: completions

    static func completions(for shell: String) -> String? {
        switch shell {
        case "bash": bash
        case "zsh": zsh
        case "fish": fish
        default: nil
        }
    }

    private static var commandNames: String { CommandLineSpec.commands.map(\.name.rawValue).joined(separator: " ") }

    private static func flags(of command: CommandLineSpec.Command?) -> [CommandLineSpec.Option] {
        CommandLineSpec.globalOptions + (command?.options.map(CommandLineSpec.option(_:)) ?? [])
    }

    private static var bash: String {
        var cases: [String] = []
        for command in CommandLineSpec.commands {
            let words = flags(of: command).flatMap(\.names).joined(separator: " ")
            let files: String
            switch command.completion {
            case .file: files = "COMPREPLY+=($(compgen -f -- \"$cur\"))"
            case .directory: files = "COMPREPLY+=($(compgen -d -- \"$cur\"))"
            case .shell: files = "COMPREPLY+=($(compgen -W \"bash zsh fish\" -- \"$cur\"))"
            case .command: files = "COMPREPLY+=($(compgen -W \"\(commandNames)\" -- \"$cur\"))"
            case .album: files = "_album_titles"
            case .none: files = ":"
            }
            let positional = command.takesAlbumFirst ? "if ((first)); then _album_titles; else \(files); fi" : files
            cases.append(
                """
                        \(command.name))
                            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "\(words)" -- "$cur")); else \(positional); fi ;;
                """)
        }
        let valued = CommandLineSpec.allOptions.filter { $0.value != nil }
        let fileValued = valued.filter { $0.completion == .file }.flatMap(\.names).joined(separator: "|")
        let choices = valued.filter { !$0.choices.isEmpty }.map { option in
            "\(option.names.joined(separator: "|"))) COMPREPLY=($(compgen -W \"\(option.choices.joined(separator: " "))\" -- \"$cur\")); return ;;"
        }.map { "\n            " + $0 }.joined()
        let albumValued = valued.filter { $0.completion == .album }.flatMap(\.names).joined(separator: "|")
        let otherValued = valued.filter { $0.completion != .file && $0.completion != .album && $0.choices.isEmpty }
            .flatMap(\.names).joined(separator: "|")
        // The options that choose the library, passed on to `album albums --titles`.
        let libraryValued = CommandLineSpec.globalOptions.filter { $0.value != nil }.flatMap(\.names)
            .joined(separator: "|")
        let libraryFlags = [CommandLineSpec.OptionName.system, .catalog, .folders].map(\.rawValue)
            .joined(separator: "|")
        return """
            # bash completion for album (generated by `album completions bash`)
            # The titles of the library the command line names (its --library, --folders…, else
            # ALBUMKIT_LIBRARY or the default), asked of `album albums --titles` now, one a line.
            _album_titles() {
                local i word title prefix=${cur#\\\"}
                prefix=${prefix#\\\'}
                local -a library=()
                for ((i = 1; i < COMP_CWORD; i++)); do
                    word=${COMP_WORDS[i]}
                    case $word in
                        \(libraryValued)) library+=("$word" "${COMP_WORDS[i+1]/#\\~/$HOME}"); ((i++)) ;;
                        \(libraryFlags)|--library=*) library+=("$word") ;;
                    esac
                done
                while IFS= read -r title; do
                    [[ $title == "$prefix"* ]] && COMPREPLY+=("$title")
                done < <(album "${library[@]}" albums --titles 2>/dev/null)
            }
            _album() {
                local cur prev cmd i first=1
                cur=${COMP_WORDS[COMP_CWORD]}
                prev=${COMP_WORDS[COMP_CWORD-1]}
                COMPREPLY=()
                case $prev in
                    \(fileValued)) COMPREPLY=($(compgen -f -- "$cur")); return ;;\(choices)
                    \(albumValued)) _album_titles; return ;;
                    \(otherValued)) return ;;
                esac
                for ((i = 1; i < COMP_CWORD; i++)); do
                    case ${COMP_WORDS[i]} in
                        \(valuedPattern(valued))) ((i++)) ;;
                        -*) ;;
                        *) cmd=${COMP_WORDS[i]}; break ;;
                    esac
                done
                # Whether the word completed is the command's first argument (not an option's value).
                for ((i++; i < COMP_CWORD; i++)); do
                    case ${COMP_WORDS[i]} in
                        \(valuedPattern(valued))) ((i++)) ;;
                        -*) ;;
                        *) first=0 ;;
                    esac
                done
                case $cmd in
                    "")
                        if [[ $cur == -* ]]; then
                            COMPREPLY=($(compgen -W "\(flags(of: nil).flatMap(\.names).joined(separator: " "))" -- "$cur"))
                        else
                            COMPREPLY=($(compgen -W "\(commandNames)" -- "$cur"))
                        fi ;;
            \(cases.joined(separator: "\n"))
                esac
            }
            complete -o filenames -F _album album

            """
    }

    private static func valuedPattern(_ options: [CommandLineSpec.Option]) -> String {
        options.flatMap(\.names).joined(separator: "|")
    }

    private static func zshSpec(_ option: CommandLineSpec.Option) -> String {
        let help = option.help.replacingOccurrences(of: "'", with: "'\\''")
            .replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "]", with: "\\]")
        let action: String
        switch (option.value, option.completion) {
        case (nil, _): action = ""
        case (let value?, .file): action = ":\(value.lowercased()):_files"
        case (let value?, .album): action = ":\(value.lowercased()):_album_titles"
        case (_?, _) where !option.choices.isEmpty:
            action = ":\(option.long.dropFirst(2)):(\(option.choices.joined(separator: " ")))"
        case (let value?, _): action = ":\(value.lowercased()): "
        }
        let repeatable = option.repeatable ? "*" : ""
        if option.names.count > 1 {
            return "\(repeatable){\(option.names.joined(separator: ","))}'[\(help)]\(action)'"
        }
        return "'\(repeatable)\(option.long)[\(help)]\(action)'"
    }

    private static var zsh: String {
        let libraryValuedZsh = CommandLineSpec.globalOptions.filter { $0.value != nil }.flatMap(\.names)
            .joined(separator: "|")
        let libraryFlagsZsh = [CommandLineSpec.OptionName.system, .catalog, .folders].map(\.rawValue)
            .joined(separator: "|")
        let global = CommandLineSpec.globalOptions.map { "        " + zshSpec($0) + " \\" }.joined(separator: "\n")
        let commands = CommandLineSpec.commands.map { command in
            "        '\(command.name):\(command.summary.replacingOccurrences(of: "'", with: "'\\''"))'"
        }.joined(separator: "\n")
        // After the command, the global options are still offered (they may come anywhere).
        let globalSpecs = CommandLineSpec.globalOptions.map { zshSpec($0) + " " }.joined()
        var cases: [String] = []
        for command in CommandLineSpec.commands {
            let own = command.options.map(CommandLineSpec.option(_:)).map { zshSpec($0) + " " }.joined()
            var rest: String
            switch command.completion {
            case .file: rest = "'*:file:_files'"
            case .directory: rest = "'*:folder:_files -/'"
            case .shell: rest = "':shell:(bash zsh fish)'"
            case .command: rest = "':command:(\(commandNames))'"
            case .album: rest = "'*:album:_album_titles'"
            case .none: rest = ""
            }
            if command.takesAlbumFirst {
                rest = "'1:album:_album_titles' " + rest.replacingOccurrences(of: "'*:", with: "'*::")
            }
            cases.append("        \(command.name)) _arguments \(globalSpecs)\(own)\(rest) ;;")
        }
        return """
            #compdef album
            # zsh completion for album (generated by `album completions zsh`)
            # The titles of the library the command line names (its --library, --folders…, else
            # ALBUMKIT_LIBRARY or the default), asked of `album albums --titles` now, one a line.
            _album_titles() {
                local -a library titles
                local i
                for ((i = 1; i < ${#album_line}; i++)); do
                    case $album_line[i] in
                        \(libraryValuedZsh)) library+=($album_line[i] ${~album_line[i+1]}); ((i++)) ;;
                        \(libraryFlagsZsh)|--library=*) library+=($album_line[i]) ;;
                    esac
                done
                titles=(${(f)"$(album $library albums --titles 2>/dev/null)"})
                compadd -a titles
            }
            _album() {
                local -a album_line
                album_line=($words)
                local -a commands
                commands=(
            \(commands)
                )
                _arguments -C \\
            \(global)
                    '1:command:->command' \\
                    '*::argument:->argument'
                case $state in
                    command) _describe 'command' commands ;;
                    argument)
                        case $words[1] in
            \(cases.joined(separator: "\n"))
                        esac ;;
                esac
            }
            _album "$@"

            """
    }

    private static var fish: String {
        func escape(_ text: String) -> String { text.replacingOccurrences(of: "'", with: "\\'") }
        func line(_ option: CommandLineSpec.Option, condition: String) -> String {
            var parts = ["complete -c album", "-n '\(condition)'", "-l \(option.long.dropFirst(2))"]
            if let short = option.short { parts.append("-s \(short.dropFirst())") }
            if option.value != nil { parts.append(option.completion == .file ? "-r -F" : "-x") }
            if option.completion == .album { parts.append("-a '(__album_titles)'") }
            if !option.choices.isEmpty { parts.append("-a '\(option.choices.joined(separator: " "))'") }
            parts.append("-d '\(escape(option.help))'")
            return parts.joined(separator: " ")
        }
        let libraryValued = CommandLineSpec.globalOptions.filter { $0.value != nil }.flatMap(\.names)
            .joined(separator: " ")
        let libraryFlags = [CommandLineSpec.OptionName.system, .catalog, .folders].map(\.rawValue)
            .joined(separator: " ")
        var lines = [
            "# fish completion for album (generated by `album completions fish`)",
            "complete -c album -f",
            "# The titles of the library the command line names (its --library, --folders…, else",
            "# ALBUMKIT_LIBRARY or the default), asked of `album albums --titles` now, one a line.",
            "function __album_titles",
            "    set -l words (commandline -opc)",
            "    set -l library",
            "    set -l i 2",
            "    while test $i -le (count $words)",
            "        switch $words[$i]",
            "            case \(libraryValued)",
            "                set -l next (math $i + 1)",
            "                test $next -le (count $words); and set -a library $words[$i] $words[$next]",
            "                set i $next",
            "            case \(libraryFlags) '--library=*'",
            "                set -a library $words[$i]",
            "        end",
            "        set i (math $i + 1)",
            "    end",
            "    album $library albums --titles 2>/dev/null",
            "end",
        ]
        for command in CommandLineSpec.commands {
            lines.append(
                "complete -c album -n '__fish_use_subcommand' -a \(command.name) -d '\(escape(command.summary))'")
        }
        for option in CommandLineSpec.globalOptions { lines.append(line(option, condition: "true")) }
        for command in CommandLineSpec.commands {
            let condition = "__fish_seen_subcommand_from \(command.name)"
            for option in command.options.map(CommandLineSpec.option(_:)) {
                lines.append(line(option, condition: condition))
            }
            switch command.completion {
            case .file: lines.append("complete -c album -n '\(condition)' -F")
            case .directory: lines.append("complete -c album -n '\(condition)' -x -a '(__fish_complete_directories)'")
            case .shell: lines.append("complete -c album -n '\(condition)' -x -a 'bash zsh fish'")
            case .command: lines.append("complete -c album -n '\(condition)' -x -a '\(commandNames)'")
            case .album, .none: break
            }
            if command.takesAlbumFirst {
                lines.append("complete -c album -n '\(condition)' -x -a '(__album_titles)'")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
