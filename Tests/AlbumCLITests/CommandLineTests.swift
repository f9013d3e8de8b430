import Foundation
import AlbumTestSupport
import Testing

/// How `album` reads its command line, run as a user would: short options bundled as POSIX has
/// them, `--` ending options, and a command spec with no option that nothing uses.
@Suite(.onThreadsOfTheirOwn) struct CommandLineTests {
    /// A folder holding two photos, and the arguments of a catalog library beside it.
    static func photos(in dir: URL) throws -> (folder: String, library: [String]) {
        let folder = dir.appendingPathComponent("pictures")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["harbour.jpg", "garden.png"] {
            try FileManager.default.copyItem(
                at: CLI.examples.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        return (folder.path, ["--library", dir.appendingPathComponent("Test.albumlibrary").path])
    }

    /// The titles of the library's albums and how many assets each holds.
    static func albums(_ library: [String]) throws -> [String: Int] {
        let run = try CLI.run(library + ["albums", "--json"])
        var counts: [String: Int] = [:]
        for album in (run.json() as? [[String: Any]]) ?? [] {
            counts[album["title"] as? String ?? ""] = album["count"] as? Int
        }
        return counts
    }

    @Test func bundledFlagsAreTheFlagsGivenOneByOne() throws {
        try CLI.withTemporaryDirectory { dir in
            let (folder, library) = try Self.photos(in: dir)
            // -rn: a dry run of the folder, as -r -n; nothing is written.
            let apart = try CLI.run(library + ["save", "-r", "-n", "--json", folder])
            let bundled = try CLI.run(library + ["save", "-rn", "--json", folder])
            #expect(bundled.status == 0, "\(bundled.stderr)")
            #expect(bundled.stdout == apart.stdout)
            #expect(bundled.jsonLines().count == 2)
            #expect(bundled.jsonLines().allSatisfy { $0["wouldSave"] as? Bool == true })
            #expect(!FileManager.default.fileExists(atPath: library[1]))
            // -nr, the other order.
            #expect(try CLI.run(library + ["save", "-nr", "--json", folder]).stdout == apart.stdout)
            // -0q: NUL-separated paths from stdin, quietly.
            let quiet = try CLI.run(
                library + ["save", "-0q", "-"], stdin: "\(folder)/harbour.jpg\0\(folder)/garden.png\0")
            #expect(quiet.status == 0, "\(quiet.stderr)")
            #expect(quiet.stdout.isEmpty)
            let assets = try CLI.run(library + ["assets", "--json"])
            #expect((assets.json() as? [[String: Any]])?.count == 2)
            // A flag twice in one bundle is given twice.
            let twice = try CLI.run(library + ["save", "-rr", folder])
            #expect(twice.status == 2)
            #expect(twice.stderr.contains("--recursive was given twice"))
        }
    }

    @Test func theLastFlagOfABundleTakesTheNextArgumentOrTheRestOfTheBundle() throws {
        try CLI.withTemporaryDirectory { dir in
            let (folder, library) = try Self.photos(in: dir)
            // -ra Trips: -r, then -a with the next argument as its value.
            let next = try CLI.run(library + ["save", "-ra", "Trips", folder])
            #expect(next.status == 0, "\(next.stderr)")
            // -aBest: the value attached; -qaSky: flags, then -a with the rest.
            let attached = try CLI.run(library + ["save", "-aBest", "\(folder)/harbour.jpg"])
            #expect(attached.status == 0, "\(attached.stderr)")
            let rest = try CLI.run(library + ["save", "-qaSky Line", "\(folder)/garden.png"])
            #expect(rest.status == 0, "\(rest.stderr)")
            #expect(rest.stdout.isEmpty)
            #expect(try Self.albums(library) == ["Trips": 2, "Best": 1, "Sky Line": 1])
            // A value-taking letter at the end of the command line has nothing to take.
            let missing = try CLI.run(library + ["save", folder, "-ra"])
            #expect(missing.status == 2)
            #expect(missing.stderr.contains("--album needs a value (--album TITLE)"))
            // A long option spelled with one dash is refused, not read as -a "lbum".
            let oneDash = try CLI.run(library + ["save", "-album", "Trips", folder])
            #expect(oneDash.status == 2)
            #expect(oneDash.stderr.contains("unknown option -album (did you mean --album?)"))
            #expect(try Self.albums(library)["lbum"] == nil)
        }
    }

    @Test func anUnknownLetterNamesItselfAndItsBundle() throws {
        let unknown = try CLI.run(["save", "-rxn", "--json", "x.jpg"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("album: unknown option -x in -rxn\n"))
        let error = (unknown.json() as? [String: Any])?["error"] as? [String: Any]
        #expect(error?["code"] as? String == "usage")
        #expect(error?["message"] as? String == "unknown option -x in -rxn")
        // Suggestions: the letter in its other case, a long option with a dash missing.
        let upper = try CLI.run(["save", "-Rn", "x.jpg"])
        #expect(upper.status == 2)
        #expect(upper.stderr.contains("unknown option -R in -Rn (did you mean -r?)"))
        let library = try CLI.run(["-l", "/tmp/x", "albums"])
        #expect(library.stderr.contains("unknown option -l (did you mean -L?)"))
        let dashed = try CLI.run(["save", "-dryrun", "x.jpg"])
        #expect(dashed.stderr.contains("unknown option -d in -dryrun (did you mean --dry-run?)"))
        // A file whose name starts with "-" gets told how to name it.
        let file = try CLI.run(["save", "-rn.jpg"])
        #expect(file.status == 2)
        #expect(
            file.stderr.contains(
                "unknown option -. in -rn.jpg; for a file whose name starts with \"-\", write ./-rn.jpg or put -- before it"
            ))
    }

    @Test func doubleDashEndsOptionsBundlesIncluded() throws {
        try CLI.withTemporaryDirectory { dir in
            let (folder, library) = try Self.photos(in: dir)
            // After --, "-ra" is a title and "--json" a title, not options.
            #expect(try CLI.run(library + ["create", "--", "-ra"]).status == 0)
            let option = try CLI.run(library + ["create", "-q", "--", "--json"])
            #expect(option.status == 0)
            #expect(option.stdout.isEmpty)
            #expect(try Self.albums(library) == ["-ra": 0, "--json": 0])
            // Options before -- still count; a file named like a bundle is saved.
            let named = dir.appendingPathComponent("-rn.jpg")
            try FileManager.default.copyItem(at: URL(fileURLWithPath: "\(folder)/harbour.jpg"), to: named)
            let save = try CLI.run(library + ["save", "-qa", "-ra", "--", "-rn.jpg"], directory: dir)
            #expect(save.status == 0, "\(save.stderr)")
            #expect(try Self.albums(library) == ["-ra": 1, "--json": 0])
            let show = try CLI.run(library + ["show", "--json", "--", "-ra"])
            #expect((show.json() as? [[String: Any]])?.first?["file"] as? String == "-rn.jpg")
            // Without --, the bundle is an error, not a title.
            let bundle = try CLI.run(library + ["create", "-ra"])
            #expect(bundle.status == 2)
            #expect(bundle.stderr.contains("--album needs a value"))
        }
    }

    /// An option as an option list shows it: help's `  -a, --album TITLE  Save into…`, the man
    /// page's `\fB\-a, \-\-album TITLE\fR`.
    struct Listed {
        let long: String
        let takesValue: Bool

        init?(_ line: Substring) {
            let synopsis = line.replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\fB", with: "")
                .replacingOccurrences(of: "\\fR", with: "").trimmingCharacters(in: .whitespaces)
                .components(separatedBy: "  ")[0].split(separator: " ")
            guard let long = synopsis.firstIndex(where: { $0.hasPrefix("--") }) else { return nil }
            self.long = String(synopsis[long])
            takesValue = long < synopsis.count - 1
        }
    }

    /// The lines of `text` after the line `heading`, up to the next empty line.
    static func section(_ heading: String, of text: String) -> [Substring] {
        Array(
            text.split(separator: "\n", omittingEmptySubsequences: false).drop { $0 != heading }.dropFirst()
                .prefix { !$0.isEmpty })
    }

    @Test func everyOptionOfTheSpecBelongsToACommandAndEveryCommandsOptionIsInTheSpec() throws {
        let overview = try CLI.run(["--help"]).stdout
        let commands = Self.section("COMMANDS:", of: overview).map { String($0.split(separator: " ")[0]) }
        let global = Self.section("OPTIONS (every command):", of: overview).compactMap(Listed.init).map(\.long)
        #expect(commands.count >= 20)
        #expect(global.contains("--library") && global.contains("--json"))
        // The man page lists every option of the spec, once.
        let man = try CLI.run(["man"]).stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let manOptions = man.drop { $0 != ".SH OPTIONS" }.prefix { $0 != ".SH ALBUMS" }.filter { $0.hasPrefix("\\fB") }
            .compactMap(Listed.init).map(\.long)
        #expect(manOptions.count == Set(manOptions).count)
        var used = Set(global)
        try CLI.withTemporaryDirectory { dir in
            let missing = ["--library", dir.appendingPathComponent("None.albumlibrary").path]
            for command in commands {
                let help = try CLI.run([command, "--help"])
                #expect(help.status == 0)
                let listed = Self.section("OPTIONS:", of: help.stdout).compactMap(Listed.init)
                let own = listed.map(\.long)
                #expect(Set(own).isDisjoint(with: global), "\(command) lists an option every command has")
                #expect(Set(own).isSubset(of: manOptions), "\(command) has an option the spec does not describe")
                used.formUnion(own)
                // Each option its help lists is one it accepts (a value for those that take one).
                for option in listed {
                    let run = try CLI.run(missing + [command, option.long] + (option.takesValue ? ["1"] : []))
                    #expect(!run.stderr.contains("does not apply"), "album \(command) \(option.long): \(run.stderr)")
                    #expect(!run.stderr.contains("unknown option"), "album \(command) \(option.long): \(run.stderr)")
                }
                // And one it does not list is refused.
                if let other = manOptions.first(where: { !own.contains($0) && !global.contains($0) }) {
                    let run = try CLI.run(missing + [command, other, "1"])
                    #expect(run.status == 2)
                    #expect(run.stderr.contains("\(other) does not apply to `album \(command)`"), "\(run.stderr)")
                }
            }
        }
        // No option of the spec is left that no command takes.
        #expect(used == Set(manOptions), "options no command takes: \(Set(manOptions).subtracting(used))")
    }
}
