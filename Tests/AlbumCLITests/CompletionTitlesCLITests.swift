import AlbumTestSupport
import Foundation
import Testing

/// Completion offers the titles of the library the command line names, asked of `album albums
/// --titles` at completion time: in a real bash, zsh and fish with the generated scripts loaded.
@Suite(.onThreadsOfTheirOwn) struct CompletionTitlesCLITests {
    /// Runs `program` in `shell` with `album` on the PATH; its output lines, sorted.
    static func run(_ shell: String, _ arguments: [String], home: URL, library: URL) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = arguments
        process.environment = [
            "PATH": CLI.binary.deletingLastPathComponent().path + ":/usr/bin:/bin", "HOME": home.path,
            "ALBUMKIT_LIBRARY": library.path,
        ]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.split(separator: "\n").map(String.init).sorted()
    }

    @Test func bashZshAndFishOfferTheTitlesOfTheLibraryNamed() throws {
        try CLI.withTemporaryDirectory { dir in
            let catalog = dir.appendingPathComponent("Main.albumlibrary")
            let pictures = dir.appendingPathComponent("Pictures")
            for title in ["Trips", "Trips 2024", "Family & Friends"] {
                #expect(try CLI.run(["create", title, "--library", catalog.path]).status == 0)
            }
            #expect(try CLI.run(["create", "Garden", "--folders", "--library", pictures.path]).status == 0)
            let titles = try CLI.run(["albums", "--titles", "--library", catalog.path])
            #expect(titles.lines == ["Trips", "Trips 2024", "Family & Friends"], "\(titles.stdout)")

            let scripts = dir.appendingPathComponent("scripts")
            try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
            for shell in ["bash", "zsh", "fish"] {
                try Data(try CLI.run(["completions", shell]).stdout.utf8).write(
                    to: scripts.appendingPathComponent("album.\(shell)"))
            }
            // bash: COMP_WORDS as bash sets them; the default library is ALBUMKIT_LIBRARY.
            func bash(_ words: [String]) throws -> [String] {
                let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
                let program = """
                    source '\(scripts.path)/album.bash'
                    COMP_WORDS=(album \(quoted.joined(separator: " "))); COMP_CWORD=\(words.count)
                    _album; printf '%s\\n' "${COMPREPLY[@]}"
                    """
                return try Self.run("/bin/bash", ["-c", program], home: dir, library: catalog)
            }
            #expect(try bash(["show", ""]) == ["Family & Friends", "Trips", "Trips 2024"])
            #expect(try bash(["show", "Tr"]) == ["Trips", "Trips 2024"])
            #expect(try bash(["show", "\"Trips "]) == ["Trips 2024"], "a title begun in quotes")
            #expect(try bash(["save", "--album", "F"]) == ["Family & Friends"])
            #expect(try bash(["import", "-a", ""]).count == 3)
            #expect(try bash(["--folders", "--library", pictures.path, "show", ""]) == ["Garden"])
            #expect(try bash(["delete", "--library", pictures.path, "--folders", "G"]) == ["Garden"])
            // Only the first argument is a title: export's second is a folder, add's are assets.
            #expect(try bash(["export", "Trips", scripts.path]) == [scripts.path])
            #expect(try bash(["add", "Trips", "Tr"]).isEmpty)
            #expect(try bash(["--library", dir.appendingPathComponent("none").path, "show", ""]).isEmpty)

            // zsh: the helper the script defines, with compadd printing what it is given (zsh and
            // fish are checked where installed, always in CI: ExternalTool).
            if ExternalTool.isInstalled("zsh"), let zshPath = ExternalTool.path("zsh") {
                let zsh = """
                    _arguments() { : }
                    compadd() { [[ $1 == -a ]] && print -l -- ${(P)2} }
                    source '\(scripts.path)/album.zsh'
                    album_line=(album --folders --library '\(pictures.path)' show '')
                    _album_titles
                    album_line=(album show '')
                    _album_titles
                    """
                #expect(
                    try Self.run(zshPath, ["-f", "-c", zsh], home: dir, library: catalog)
                        == ["Family & Friends", "Garden", "Trips", "Trips 2024"])
            }

            // fish: its own completion engine.
            if ExternalTool.isInstalled("fish"), let fishPath = ExternalTool.path("fish") {
                func fish(_ line: String) throws -> [String] {
                    try Self.run(
                        fishPath,
                        ["--no-config", "-c", "source '\(scripts.path)/album.fish'; complete -C '\(line)'"],
                        home: dir, library: catalog
                    ).map { String($0.prefix { $0 != "\t" }) }
                }
                #expect(try fish("album show Tr") == ["Trips", "Trips 2024"])
                #expect(try fish("album save --album F") == ["Family & Friends"])
                #expect(try fish("album --folders --library \(pictures.path) show ") == ["Garden"])
            }
        }
    }
}
