import AlbumKitConformance
import AlbumTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The `album` command, run as a real process.
@Suite(.onThreadsOfTheirOwn) struct CLITests {
    @Test func helpAndUsageErrors() throws {
        let help = try CLI.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: album"))
        #expect(try CLI.run(["save", "--help"]).stdout.contains("--album TITLE"))
        #expect(try CLI.run(["frobnicate"]).status == 2)
        #expect(try CLI.run(["save", "--bogus", "x.jpg"]).status == 2)
        #expect(try CLI.run(["show"]).status == 2)
        #expect(try CLI.run([]).status == 2)
        // With --json, every usage error is also a JSON object on stdout (before: stderr only).
        for arguments in [
            ["save", "--json"], ["--json", "frobnicate"], ["--json"], ["albums", "extra", "--json"],
            ["save", "--json", "--bogus", "x.jpg"], ["show", "--json"], ["completions", "tcsh", "--json"],
        ] {
            let run = try CLI.run(arguments)
            #expect(run.status == 2, "\(arguments)")
            let error = (run.json() as? [String: Any])?["error"] as? [String: Any]
            #expect(error?["code"] as? String == "usage", "\(arguments): \(run.stdout)")
            #expect((error?["message"] as? String)?.isEmpty == false)
        }
        // `help` of a command that does not exist is an error, with a suggestion.
        let unknown = try CLI.run(["help", "sav"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown command 'sav'. Did you mean 'save'?"))
        // Ties go to the closer command; a file name that looks like an option gets the way out.
        #expect(try CLI.run(["delete-assets"]).stderr.contains("Did you mean 'delete-asset'?"))
        #expect(try CLI.run(["save", "-x.jpg"]).stderr.contains("write ./-x.jpg or put -- before it"))
        // A usage error is one whether or not the library exists.
        #expect(try CLI.run(["assets", "--order", "nope", "--library", "/nonexistent/x.albumlibrary"]).status == 2)
        // Folder filters without a folder walk filter nothing: refused, not ignored.
        #expect(try CLI.run(["save", "--include", "*.jpg", "a.jpg"]).stderr.contains("add -r"))
        // An invalid album title is one error, before any file is read (not one per file).
        let title = try CLI.run(["save", "--album", "", "--json", "a.jpg", "b.jpg", "c.jpg"])
        #expect(title.status == 1)
        #expect(title.lines.count == 1)
        #expect(title.stdout.contains("invalidAlbumTitle"))
    }

    /// Runs `album ARGS` with stdout on `/dev/full`: how it ended, and what it said on stderr.
    static func runIntoAFullOutput(_ arguments: [String]) throws -> (
        reason: Process.TerminationReason, status: Int32, stderr: String
    ) {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = arguments
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationReason, process.terminationStatus, text)
    }

    @Test func unwritableOutputIsAnErrorNotACrash() throws {
        let run = try Self.runIntoAFullOutput(["--help"])
        #expect(run.reason == .exit)
        #expect(run.status == 1)
        #expect(run.stderr.contains("cannot write"))
    }

    /// A save whose output fails says where it stopped and that running it again finishes it
    /// (before: only "cannot write the output", with no word of what was saved).
    @Test func aSaveWhoseOutputFailsSaysWhereItStopped() throws {
        try CLI.withTemporaryDirectory { dir in
            let lib = dir.appendingPathComponent("F.albumlibrary").path
            let files = try CLIUsabilityTests.photos(5, in: dir)
            let run = try Self.runIntoAFullOutput(["save", "--library", lib] + files)
            #expect(run.status == 1)
            #expect(run.stderr.contains("stopped at file 1 of 5"), "\(run.stderr)")
            // Run again: everything is saved, what was there found.
            let again = try CLI.run(["save", "--json", "--library", lib] + files)
            #expect(again.status == 0)
            #expect(again.jsonLines().filter { $0["asset"] != nil }.count == 5)
        }
    }

    @Test func saveListShowVerifyWithJSON() throws {
        try CLI.withTemporaryDirectory { dir in
            let lib = dir.appendingPathComponent("T.albumlibrary").path
            let files = ["harbour.jpg", "garden.png", "sky.heic", "clip.mp4"].map {
                CLI.examples.appendingPathComponent($0).path
            }
            let save = try CLI.run(["save", "--album", "Touch Code Magazine", "--json", "--library", lib] + files)
            #expect(save.status == 0, "\(save.stderr)")
            let lines = save.jsonLines()
            #expect(lines.count == 4)
            // One transaction created the album for the whole batch.
            #expect(lines.map { $0["albumOutcome"] as? String } == ["created", "created", "created", "created"])
            #expect(Set(lines.compactMap { $0["album"] as? String }).count == 1)
            #expect(lines.map { $0["file"] as? String } == files)

            // --library after the command and before it both work.
            let albums = try CLI.run(["--library", lib, "albums", "--json"])
            let list = try #require(albums.json() as? [[String: Any]])
            #expect(list.count == 1)
            #expect(list.first?["title"] as? String == "Touch Code Magazine")
            #expect(list.first?["count"] as? Int == 4)

            let show = try CLI.run(["show", "Touch Code Magazine", "--json", "--library", lib])
            let assets = try #require(show.json() as? [[String: Any]])
            #expect(assets.map { $0["file"] as? String } == ["harbour.jpg", "garden.png", "sky.heic", "clip.mp4"])
            #expect(assets.map { $0["kind"] as? String } == ["photo", "photo", "photo", "video"])
            #expect(assets.allSatisfy { ($0["size"] as? Int ?? 0) > 0 && $0["id"] is String && $0["added"] is String })

            let verify = try CLI.run(["verify", "--library", lib])
            #expect(verify.status == 0)
            #expect(verify.stdout.contains("4 assets"))
        }
    }

    @Test func badInputsFailAloneWithClearErrors() throws {
        try CLI.withTemporaryDirectory { dir in
            let lib = dir.appendingPathComponent("T.albumlibrary").path
            let text = dir.appendingPathComponent("letter.jpg")
            try Data("Dear diary".utf8).write(to: text)
            let empty = dir.appendingPathComponent("empty.png")
            try Data().write(to: empty)
            let folder = dir.appendingPathComponent("folder.jpg")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let missing = dir.appendingPathComponent("missing.heic")
            let good = CLI.examples.appendingPathComponent("harbour.jpg")
            let run = try CLI.run(
                ["save", "--json", "--album", "A", "--library", lib] + [text, empty, folder, missing, good].map(\.path))
            #expect(run.status == 1)
            let codes = run.jsonLines().map { ($0["error"] as? [String: Any])?["code"] as? String }
            // An empty file named as a photo is one a camera did not finish: damaged, not "not media".
            #expect(codes == ["notMedia", "corruptMedia", "fileUnreadable", "fileNotFound", nil])
            // Messages on stderr name each file.
            for file in [text, empty, folder, missing] { #expect(run.stderr.contains(file.lastPathComponent)) }
            let show = try CLI.run(["show", "A", "--json", "--library", lib])
            #expect((show.json() as? [[String: Any]])?.count == 1)

            let spaces = try CLI.run(["save", "--album", "   ", "--json", "--library", lib, good.path])
            #expect(spaces.status == 1)
            #expect((spaces.jsonLines().first?["error"] as? [String: Any])?["code"] as? String == "invalidAlbumTitle")
            #expect((try CLI.run(["albums", "--json", "--library", lib]).json() as? [Any])?.count == 1)
        }
    }

    @Test func pathsFromStandardInputAndLibraryFromEnvironment() throws {
        try CLI.withTemporaryDirectory { dir in
            let lib = dir.appendingPathComponent("Env.albumlibrary").path
            let input =
                ["harbour.jpg", "garden.png"].map { CLI.examples.appendingPathComponent($0).path }
                .joined(separator: "\n") + "\n"
            let run = try CLI.run(
                ["save", "-", "--album", "Stdin"], environment: ["ALBUMKIT_LIBRARY": lib], stdin: input)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.lines.count == 2)
            #expect(FileManager.default.fileExists(atPath: lib + "/catalog.sqlite"))
        }
    }

    @Test func defaultLibraryLivesUnderXDGDataHome() throws {
        try CLI.withTemporaryDirectory { dir in
            let data = dir.appendingPathComponent("data").path
            let run = try CLI.run(
                ["save", CLI.examples.appendingPathComponent("harbour.jpg").path], environment: ["XDG_DATA_HOME": data])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(FileManager.default.fileExists(atPath: data + "/albumkit/Photos.albumlibrary/catalog.sqlite"))
            // Reading a library that does not exist is an error, and creates nothing.
            let other = dir.appendingPathComponent("none.albumlibrary").path
            let albums = try CLI.run(["albums", "--library", other])
            #expect(albums.status == 1)
            #expect(albums.stderr.contains("none.albumlibrary"))
            #expect(!FileManager.default.fileExists(atPath: other))
        }
    }

    @Test func damagedCatalogIsReportedAndNotOverwritten() throws {
        try CLI.withTemporaryDirectory { dir in
            let lib = dir.appendingPathComponent("Bad.albumlibrary")
            try FileManager.default.createDirectory(at: lib, withIntermediateDirectories: true)
            let garbage = Data(repeating: 0xA5, count: 8192)
            try garbage.write(to: lib.appendingPathComponent("catalog.sqlite"))
            let run = try CLI.run(
                ["save", "--json", "--library", lib.path, CLI.examples.appendingPathComponent("harbour.jpg").path])
            #expect(run.status == 1)
            #expect(run.stdout.contains("libraryCorrupt"))
            #expect(try Data(contentsOf: lib.appendingPathComponent("catalog.sqlite")) == garbage)
        }
    }

    @Test func eightProcessesIntoOneNewAlbumCreateOneAlbum() throws {
        try CLI.withTemporaryDirectory { dir in
            let lib = dir.appendingPathComponent("Race.albumlibrary").path
            // A fresh library: the processes race on creating the catalog and on the album.
            let files = ["harbour.jpg", "garden.png", "sky.heic", "clip.mp4"].map {
                CLI.examples.appendingPathComponent($0).path
            }
            let processes = try (0..<8).map { _ in
                try CLI.start(["save", "--json", "--album", "Together", "--library", lib] + files)
            }
            for process in processes { process.waitUntilExit() }
            #expect(processes.allSatisfy { $0.terminationStatus == 0 })
            let albums = try #require(try CLI.run(["albums", "--json", "--library", lib]).json() as? [[String: Any]])
            let together = albums.filter { $0["title"] as? String == "Together" }
            #expect(together.count == 1)
            // Same bytes, same asset: the 4 files are stored once, whoever committed first.
            #expect(together.first?["count"] as? Int == 4)
            #expect(try CLI.run(["verify", "--library", lib]).status == 0)
        }
    }

    @Test func killedSaverLeavesAConsistentLibrary() throws {
        try CLI.withTemporaryDirectory { dir in
            let lib = dir.appendingPathComponent("Crash.albumlibrary").path
            // 60 distinct files so every save is its own asset.
            let sources = try (0..<60).map { i -> String in
                let url = dir.appendingPathComponent("IMG_\(i).jpg")
                try Fixture.uniqueJPEG("pad\(i)").write(to: url)
                return url.path
            }
            var acknowledged: [String: String] = [:]  // asset id → source file
            for trial in 0..<6 {
                let process = try CLI.start(["save", "--json", "--album", "Crash", "--library", lib] + sources)
                usleep(useconds_t(20_000 + trial * 45_000))
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                let out = (process.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile()
                for line in String(decoding: out, as: UTF8.self).split(separator: "\n") {
                    guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                        let asset = object["asset"] as? String, let file = object["file"] as? String
                    else { continue }
                    acknowledged[asset] = file
                }
                // Killed before the catalog existed: nothing was saved, nothing to verify.
                guard FileManager.default.fileExists(atPath: lib + "/catalog.sqlite") else {
                    #expect(acknowledged.isEmpty)
                    continue
                }
                // Reopen and verify: no half files, no rows without files.
                let verify = try CLI.run(["verify", "--library", lib])
                #expect(verify.status == 0, "trial \(trial): \(verify.stdout) \(verify.stderr)")
            }
            // Every acknowledged save is present with its SHA-256.
            let show = try CLI.run(["show", "Crash", "--json", "--library", lib])
            let assets = (show.json() as? [[String: Any]]) ?? []
            let byID = Dictionary(uniqueKeysWithValues: assets.map { ($0["id"] as! String, $0["sha256"] as? String) })
            for (asset, file) in acknowledged {
                #expect(byID[asset] != nil, "acknowledged \(asset) missing")
                #expect(byID[asset] == CLI.sha256(URL(fileURLWithPath: file)))
            }
        }
    }
}

/// `album` on folder libraries: `--library DIR` on a plain folder and `--system` (XDG Pictures).
@Suite(.onThreadsOfTheirOwn) struct FolderCLITests {
    @Test func plainFolderIsAFolderLibrary() throws {
        try CLI.withTemporaryDirectory { dir in
            let root = dir.appendingPathComponent("Pictures")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            let jpeg = CLI.examples.appendingPathComponent("harbour.jpg").path
            let save = try CLI.run(["save", "--json", "--album", "Trips", "--library", root.path, jpeg])
            #expect(save.status == 0, "\(save.stderr)")
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("Trips/harbour.jpg").path))
            // The identical file again is the same asset, not a copy.
            let again = try CLI.run(["save", "--json", "--album", "Trips", "--library", root.path, jpeg])
            #expect(again.jsonLines().first?["existing"] as? Bool == true)
            let albums = try #require(
                try CLI.run(["albums", "--json", "--library", root.path]).json() as? [[String: Any]])
            #expect(albums.map { $0["title"] as? String } == ["Trips"])
            #expect(albums.first?["count"] as? Int == 1)
            #expect(try CLI.run(["verify", "--library", root.path]).status == 0)
            // Deleting a non-empty folder album needs --force, since its files go with it.
            let refused = try CLI.run(["delete", "Trips", "--library", root.path])
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("--force"))
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("Trips/harbour.jpg").path))
            let trash = dir.appendingPathComponent("data/Trash")
            let deleted = try CLI.run(
                ["delete", "Trips", "--force", "--library", root.path],
                environment: ["XDG_DATA_HOME": trash.deletingLastPathComponent().path])
            #expect(deleted.status == 0, "\(deleted.stderr)")
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("Trips").path))
            #expect(
                FileManager.default.fileExists(atPath: trash.appendingPathComponent("files/Trips/harbour.jpg").path))
        }
    }

    /// Issue 10, items 1, 2 and 4, step by step as reported.
    @Test func folderLibraryIssueStepsThroughTheCLI() throws {
        try CLI.withTemporaryDirectory { dir in
            let root = dir.appendingPathComponent("F")
            let data = dir.appendingPathComponent("data")
            let env = ["XDG_DATA_HOME": data.path]
            let jpeg = CLI.examples.appendingPathComponent("harbour.jpg")
            let photo = try Data(contentsOf: jpeg)
            func album(_ arguments: [String]) throws -> CLI.Run {
                try CLI.run(["--library", root.path] + arguments, environment: env)
            }
            // 1. mkdir -p F/2023/Summer; cp a.jpg b.jpg F/2023/Summer/
            let summer = root.appendingPathComponent("2023/Summer")
            try FileManager.default.createDirectory(at: summer, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: jpeg, to: summer.appendingPathComponent("a.jpg"))
            try FileManager.default.copyItem(at: jpeg, to: summer.appendingPathComponent("b.jpg"))
            let listed = try #require(try album(["albums", "--json"]).json() as? [[String: Any]])
            #expect(listed.map { $0["title"] as? String } == ["2023/Summer"])
            #expect(listed.map { $0["count"] as? Int } == [2])
            #expect((try album(["show", "2023/Summer", "--json"]).json() as? [[String: Any]])?.count == 2)
            #expect(try album(["verify"]).stdout.contains("ok: 2 assets"))
            let refused = try album(["delete", "2023"])
            #expect(refused.status == 1 && refused.stderr.contains("\"2023/Summer\" (2)"))
            let forced = try album(["delete", "2023", "--force"])
            #expect(forced.status == 0, "\(forced.stderr)")
            // What was deleted first, then the albums that went with it
            let lines = forced.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasPrefix("moved album \"2023\" to the Trash") == true, "\(lines)")
            #expect(lines.dropFirst().first == "  with album \"2023/Summer\" (2 photos or videos)", "\(lines)")
            for name in ["a.jpg", "b.jpg"] {
                let trashed = data.appendingPathComponent("Trash/files/2023/Summer/\(name)")
                #expect((try? Data(contentsOf: trashed)) == photo, "\(name) is not in the Trash")
            }
            #expect(
                FileManager.default.fileExists(atPath: data.appendingPathComponent("Trash/info/2023.trashinfo").path))

            // 2. save --album Trips a.jpg; mv F/Trips F/Trips-2023; mkdir F/Trips; cp b.jpg F/Trips/mine.jpg
            #expect(try album(["save", "--album", "Trips", jpeg.path]).status == 0)
            try FileManager.default.moveItem(
                at: root.appendingPathComponent("Trips"), to: root.appendingPathComponent("Trips-2023"))
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent("Trips"), withIntermediateDirectories: false)
            try FileManager.default.copyItem(at: jpeg, to: root.appendingPathComponent("Trips/mine.jpg"))
            #expect(try album(["show", "Trips"]).stdout.contains("mine.jpg"))
            #expect(!(try album(["show", "Trips"]).stdout.contains("harbour.jpg")))
            #expect(try album(["delete", "Trips", "--force"]).status == 0)
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("Trips-2023/harbour.jpg").path))
            #expect(
                FileManager.default.fileExists(atPath: data.appendingPathComponent("Trash/files/Trips/mine.jpg").path))

            // 4. identical bytes under a non-media name are not "already there"
            let x = root.appendingPathComponent("X")
            try FileManager.default.createDirectory(at: x, withIntermediateDirectories: false)
            try FileManager.default.copyItem(at: jpeg, to: x.appendingPathComponent("harbour.jpg.bak"))
            let saved = try album(["save", "--json", "--album", "X", jpeg.path])
            #expect(saved.jsonLines().first?["existing"] == nil)
            #expect((try? Data(contentsOf: x.appendingPathComponent("harbour.jpg"))) == photo)
        }
    }

    @Test func eightProcessesIntoOneNewFolderAlbumMakeOneFolder() throws {
        try CLI.withTemporaryDirectory { dir in
            let root = dir.appendingPathComponent("Pictures")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            // Distinct files per process, so none is a duplicate of another.
            let processes = try (0..<8).map { p -> Process in
                let files = try (0..<4).map { i -> String in
                    let url = dir.appendingPathComponent("P\(p)_\(i).jpg")
                    try Fixture.uniqueJPEG("p\(p)i\(i)").write(to: url)
                    return url.path
                }
                return try CLI.start(["save", "--json", "--album", "Together", "--library", root.path] + files)
            }
            for process in processes { process.waitUntilExit() }
            #expect(processes.allSatisfy { $0.terminationStatus == 0 })
            let folders = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { !$0.hasPrefix(".") }
            #expect(folders == ["Together"])
            let albums = try #require(
                try CLI.run(["albums", "--json", "--library", root.path]).json() as? [[String: Any]])
            #expect(albums.count == 1)
            #expect(albums.first?["count"] as? Int == 32)
            #expect(try CLI.run(["verify", "--library", root.path]).status == 0)
        }
    }

    @Test func systemLibraryIsTheXDGPicturesFolder() throws {
        try CLI.withTemporaryDirectory { home in
            let config = home.appendingPathComponent("config")
            try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
            try Data("XDG_PICTURES_DIR=\"$HOME/Bilder\"\n".utf8).write(
                to: config.appendingPathComponent("user-dirs.dirs"))
            let environment = ["HOME": home.path, "XDG_CONFIG_HOME": config.path]
            let run = try CLI.run(
                ["--system", "save", "--album", "Urlaub", CLI.examples.appendingPathComponent("sky.heic").path],
                environment: environment)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent("Bilder/Urlaub/sky.heic").path))
            let albums = try CLI.run(["albums", "--system", "--json"], environment: environment)
            #expect((albums.json() as? [[String: Any]])?.first?["title"] as? String == "Urlaub")
        }
    }

    @Test func unmountedSystemFolderWritesNothing() throws {
        try CLI.withTemporaryDirectory { home in
            let config = home.appendingPathComponent("config")
            try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
            let disk = home.appendingPathComponent("media/disk/Photos").path
            try Data("XDG_PICTURES_DIR=\"\(disk)\"\n".utf8).write(to: config.appendingPathComponent("user-dirs.dirs"))
            let run = try CLI.run(
                ["--system", "save", "--json", "--album", "A", CLI.examples.appendingPathComponent("sky.heic").path],
                environment: ["HOME": home.path, "XDG_CONFIG_HOME": config.path])
            #expect(run.status == 1)
            #expect((run.jsonLines().first?["error"] as? [String: Any])?["code"] as? String == "libraryNotFound")
            #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("media").path))
        }
    }

    @Test func exportedPicturesFolderIsTheSystemLibraryWhenUserDirsSaysNothing() throws {
        try CLI.withTemporaryDirectory { home in
            // Given XDG_PICTURES_DIR in the environment and no user-dirs.dirs
            let pictures = home.appendingPathComponent("Fotos")
            try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
            let environment = ["HOME": home.path, "XDG_PICTURES_DIR": pictures.path]
            let run = try CLI.run(
                ["import", "--system", "--album", "Card", CLI.examples.appendingPathComponent("sky.heic").path],
                environment: environment)
            // Then the save goes there, and no ~/Pictures is made
            #expect(run.status == 0, "\(run.stderr)")
            #expect(FileManager.default.fileExists(atPath: pictures.appendingPathComponent("Card/sky.heic").path))
            #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("Pictures").path))
        }
    }

    @Test func aCatalogInAFolderThatDoesNotExistIsNotCreated() throws {
        try CLI.withTemporaryDirectory { dir in
            // Given a library path whose parent folder is missing (a disk not mounted)
            let library = dir.appendingPathComponent("media/disk/Photos.albumlibrary").path
            let run = try CLI.run(
                ["save", "--json", "--library", library, CLI.examples.appendingPathComponent("sky.heic").path])
            // Then nothing is made and the missing folder is named
            #expect(run.status == 1)
            #expect((run.jsonLines().first?["error"] as? [String: Any])?["code"] as? String == "libraryNotFound")
            #expect(run.stdout.contains(dir.appendingPathComponent("media/disk").path))
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("media").path))
        }
    }
}
