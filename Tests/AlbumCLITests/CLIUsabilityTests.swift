import AlbumKitConformance
import AlbumTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `album` as people use it: results streamed as they are saved, interruption, stdin with NUL
/// separators, whole-folder import, refused options, suggestions, JSON for every command.
@Suite(.onThreadsOfTheirOwn) struct CLIUsabilityTests {
    /// `count` distinct JPEGs in `dir` (the example photo made unique by a comment).
    static func photos(_ count: Int, in dir: URL, prefix: String = "IMG_") throws -> [String] {
        return try (0..<count).map { i in
            let url = dir.appendingPathComponent(prefix + String(format: "%04d", i) + ".jpg")
            try Fixture.uniqueJPEG("pad\(i)").write(to: url)
            return url.path
        }
    }

    /// Reads a pipe until `predicate` holds for what was read so far (or EOF).
    static func read(_ pipe: Pipe, until predicate: (String) -> Bool) -> String {
        var text = ""
        while !predicate(text) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        return text
    }

    /// 1 500 photos, so that the signal lands while the save still runs however fast the machine:
    /// 15–17 s a signal on 2 loaded cores, the save of the photos saved before it included.
    @Test(arguments: [SIGINT, SIGTERM])
    func interruptedSavePrintsExactlyWhatWasSaved(signal: Int32) throws {
        try CLI.withTemporaryDirectory { dir in
            let lib = dir.appendingPathComponent("Stop.albumlibrary").path
            let files = try Self.photos(1500, in: dir)
            let process = try CLI.start(["save", "--json", "--album", "Stop", "--library", lib] + files)
            let out = process.standardOutput as! Pipe
            // The first results arrive while the batch is still running: printed as they are saved.
            var text = Self.read(out) { $0.contains("\"asset\"") }
            #expect(process.isRunning, "the first result came only at the end")
            kill(process.processIdentifier, signal)
            text += Self.read(out) { _ in false }
            process.waitUntilExit()
            let errors = String(
                decoding: (process.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let lines = text.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            let saved = lines.compactMap { $0["asset"] as? String }
            let cancelled = lines.filter { ($0["error"] as? [String: Any])?["code"] as? String == "cancelled" }
            #expect(lines.count == files.count, "every file has a result line")
            // The signal came after the first chunk of 128 of 1 500: the rest was not saved.
            #expect(!cancelled.isEmpty)
            #expect(saved.count + cancelled.count == files.count)
            #expect(process.terminationStatus == 130)
            #expect(errors.contains("interrupted: \(saved.count) saved, "), "\(errors)")
            // Printed = saved: exactly the printed assets are in the album, and the library is sound.
            let show = try CLI.run(["show", "Stop", "--json", "--library", lib])
            let ids = Set(((show.json() as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String })
            #expect(ids == Set(saved))
            #expect(try CLI.run(["verify", "--library", lib]).status == 0)
        }
    }

    @Test func nulSeparatedPathsKeepNewlines() throws {
        try CLI.withTemporaryDirectory { dir in
            let lib = dir.appendingPathComponent("Null.albumlibrary").path
            let odd = dir.appendingPathComponent("two\nlines.jpg")
            try FileManager.default.copyItem(at: CLI.examples.appendingPathComponent("harbour.jpg"), to: odd)
            let plain = CLI.examples.appendingPathComponent("garden.png").path
            let run = try CLI.run(
                ["save", "-0", "--json", "--album", "N", "--library", lib, "-"], stdin: odd.path + "\0" + plain + "\0")
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.jsonLines().map { $0["file"] as? String } == [odd.path, plain])
            let show = try CLI.run(["show", "N", "--json", "--library", lib])
            #expect((show.json() as? [[String: Any]])?.first?["file"] as? String == "two\nlines.jpg")
        }
    }

    @Test func conflictingRepeatedAndExtraArgumentsAreRefused() throws {
        let system = try CLI.run(["--system", "--library", "/tmp/x", "albums"])
        #expect(system.status == 2)
        #expect(system.stderr.contains("--system and --library cannot be used together"))
        let twice = try CLI.run(["save", "--album", "A", "--album", "B", "x.jpg"])
        #expect(twice.status == 2)
        #expect(twice.stderr.contains("--album was given twice"))
        let extra = try CLI.run(["show", "Touch", "Code"])
        #expect(extra.status == 2)
        #expect(extra.stderr.contains("album show \"Touch Code\""))
        let misplaced = try CLI.run(["albums", "--album", "A"])
        #expect(misplaced.status == 2)
        #expect(misplaced.stderr.contains("--album does not apply"))
        #expect(try CLI.run(["albums", "-q", "-v"]).status == 2)
    }

    @Test func mistypedLibraryPathIsNotANewLibrary() throws {
        try CLI.withTemporaryDirectory { dir in
            let photo = CLI.examples.appendingPathComponent("harbour.jpg").path
            let typo = dir.appendingPathComponent("Photos.albumlibary").path
            let run = try CLI.run(["save", "--json", "--library", typo, photo])
            #expect(run.status == 1)
            #expect(run.stderr.contains("--catalog"))
            #expect(
                (run.json() as? [String: Any]).flatMap { $0["error"] as? [String: Any] }?["code"] as? String
                    == "libraryNotFound")
            #expect(!FileManager.default.fileExists(atPath: typo))
            // Saying the kind creates it.
            let catalog = dir.appendingPathComponent("MyCatalog").path
            #expect(try CLI.run(["save", "--catalog", "--library", catalog, photo]).status == 0)
            #expect(FileManager.default.fileExists(atPath: catalog + "/catalog.sqlite"))
            #expect(try CLI.run(["albums", "--library", catalog]).status == 0)
            let folders = dir.appendingPathComponent("MyFolders").path
            #expect(try CLI.run(["save", "--folders", "--album", "Trips", "--library", folders, photo]).status == 0)
            #expect(FileManager.default.fileExists(atPath: folders + "/Trips/harbour.jpg"))
            #expect(try CLI.run(["save", "--folders", "--library", catalog, photo]).status == 1)
        }
    }

    #if os(Linux)
        /// `album --help` starts without loading SQLite, libpq (and the ~20 libraries behind it),
        /// libcurl or libcrypto: they are loaded on first use. A save does load SQLite and libcrypto,
        /// which proves the dynamic loader's report is read correctly.
        @Test func helpLoadsNoDatabaseNetworkOrCryptoLibrary() throws {
            func loaded(_ run: CLI.Run) -> [String] {
                run.stderr.split(separator: "\n").compactMap { line in
                    guard let range = line.range(of: "file=") else { return nil }
                    return String(line[range.upperBound...].prefix { $0 != " " && $0 != ";" })
                }
            }
            let help = try CLI.run(["--help"], environment: ["LD_DEBUG": "files"])
            #expect(help.status == 0)
            #expect(help.stdout.contains("USAGE: album"))
            let helpLibraries = loaded(help)
            #expect(helpLibraries.contains { $0.hasPrefix("libc.so") }, "the loader's report was not read")
            for name in ["libsqlite3", "libpq", "libcurl", "libcrypto", "libssl", "libgnutls", "libkrb5", "libldap"] {
                #expect(!helpLibraries.contains { $0.hasPrefix(name) }, "album --help loaded \(name)")
            }
            try CLI.withTemporaryDirectory { dir in
                let photo = CLI.examples.appendingPathComponent("harbour.jpg").path
                let lib = dir.appendingPathComponent("L.albumlibrary").path
                let save = try CLI.run(
                    ["save", "--album", "A", "--library", lib, photo], environment: ["LD_DEBUG": "files"])
                #expect(save.status == 0)
                // A processor with SHA instructions hashes without libcrypto; elsewhere it is loaded.
                #expect(loaded(save).contains { $0.hasPrefix("libcrypto") } == !CLI.processorHashes)
                #expect(loaded(save).contains { $0.hasPrefix("libsqlite3") })
                #expect(!loaded(save).contains { $0.hasPrefix("libpq") })
                let forced = try CLI.run(
                    ["save", "--album", "A", "--library", lib, photo],
                    environment: ["LD_DEBUG": "files", "ALBUMKIT_SHA256": "libcrypto"])
                #expect(forced.status == 0)
                #expect(loaded(forced).contains { $0.hasPrefix("libcrypto") })
            }
        }

        /// AlbumKit calls SQLite under its own names (`albumkit_sqlite3_*`): a program linking AlbumKit
        /// and using SQLite itself, or linking its own copy, never reaches AlbumKit's loader or
        /// meets a duplicate symbol.
        @Test func noSQLiteSymbolIsDefinedOrNeeded() throws {
            let nm = Process()
            nm.executableURL = URL(fileURLWithPath: "/usr/bin/nm")
            nm.arguments = [CLI.binary.path]
            let output = Pipe()
            nm.standardOutput = output
            try nm.run()
            let symbols = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            nm.waitUntilExit()
            #expect(nm.terminationStatus == 0)
            let names = symbols.split(separator: "\n").compactMap { $0.split(separator: " ").last }
            #expect(names.contains("albumkit_sqlite3_open_v2"), "the symbol table was not read")
            #expect(!names.contains { $0.hasPrefix("sqlite3_") }, "\(names.filter { $0.hasPrefix("sqlite3_") })")
        }

        /// A tiny open-file limit is named as such ("raise `ulimit -n`"), never taken for a damaged
        /// library (a failed listing of `originals/` once read as a library holding photos) nor
        /// for a missing SQLite; the library then takes a save under a normal limit.
        @Test func aTinyOpenFileLimitIsNamedAndTheLibraryStaysUsable() throws {
            try CLI.withTemporaryDirectory { dir in
                let photo = CLI.examples.appendingPathComponent("harbour.jpg").path
                // Under 7, libdispatch itself can abort at start (its eventfd fails).
                for limit in 7...16 {
                    let lib = dir.appendingPathComponent("L\(limit).albumlibrary").path
                    let (status, text) = try Self.run(["save", "--album", "A", "--library", lib, photo], limit: limit)
                    #expect(
                        status == 0 || (status == 1 && text.contains("ulimit -n")),
                        "ulimit -n \(limit): \(status) \(text)")
                    #expect(!text.contains("damaged") && !text.contains("install"), "ulimit -n \(limit): \(text)")
                    #expect(try CLI.run(["save", "--album", "A", "--library", lib, photo]).status == 0)
                    #expect(try CLI.run(["verify", "--library", lib]).status == 0)
                }
            }
        }

        /// Under a limit too low for libdispatch to keep the descriptors it needs beside the
        /// command's own, every command that opens a library is refused before it opens anything;
        /// the release `album` was stopped by libdispatch (`SIGILL`) in about 1 save in 8 at 7.
        @Test func aLimitBelowTheMinimumIsRefusedBeforeAnythingIsOpened() throws {
            try CLI.withTemporaryDirectory { dir in
                let photo = CLI.examples.appendingPathComponent("harbour.jpg").path
                let lib = dir.appendingPathComponent("Low.albumlibrary").path
                for limit in [7, 9, 15] {
                    for _ in 0..<10 {
                        let (status, text) = try Self.run(
                            ["save", "--album", "A", "--library", lib, photo], limit: limit)
                        #expect(status == 1, "ulimit -n \(limit): \(status) \(text)")
                        #expect(text.contains("raise `ulimit -n` to 16 or more"), "\(text)")
                    }
                    #expect(!FileManager.default.fileExists(atPath: lib))
                }
                let json = try Self.run(["albums", "--json", "--library", lib], limit: 7)
                #expect(json.status == 1 && json.text.contains("\"code\":\"ioFailure\""), "\(json.text)")
                // Commands that open nothing still run.
                #expect(try Self.run(["completions", "bash"], limit: 7).status == 0)
                #expect(try CLI.run(["save", "--album", "A", "--library", lib, photo]).status == 0)
            }
        }

        /// A folder library read under a tiny open-file limit: the whole answer or "raise `ulimit -n`",
        /// never a partial one ("No albums.", an album missing, a folder reported as a problem).
        @Test func aFolderLibraryReadUnderATinyLimitIsWholeOrRefused() throws {
            try CLI.withTemporaryDirectory { dir in
                let photo = CLI.examples.appendingPathComponent("harbour.jpg").path
                let lib = dir.appendingPathComponent("Folders").path
                try FileManager.default.createDirectory(atPath: lib, withIntermediateDirectories: true)
                for album in ["A", "B", "C", "D", "E"] {
                    #expect(try CLI.run(["save", "--folders", "--album", album, "--library", lib, photo]).status == 0)
                }
                for limit in 7...16 {
                    for command in [["albums", "--json"], ["verify"], ["show", "C"], ["assets"]] {
                        let (status, text) = try Self.run(["--folders", "--library", lib] + command, limit: limit)
                        if status == 0 {
                            #expect(!text.contains("No albums") && !text.contains("problem"), "\(command) \(limit)")
                            if command == ["albums", "--json"] {
                                #expect(["\"A\"", "\"B\"", "\"C\"", "\"D\"", "\"E\""].allSatisfy(text.contains))
                            }
                        } else {
                            #expect(status == 1 && text.contains("ulimit -n"), "\(command) \(limit): \(status) \(text)")
                        }
                    }
                }
            }
        }

        /// Runs `album ARGUMENTS` under `ulimit -n limit`, with only the standard descriptors open
        /// (the test runner's own open files must not count against the limit); stdout and stderr together.
        static func run(_ arguments: [String], limit: Int) throws -> (status: Int32, text: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments =
                [
                    "-c",
                    "for fd in /proc/$$/fd/*; do n=${fd##*/}; [ \"$n\" -gt 2 ] && eval \"exec $n>&-\"; done; "
                        + "ulimit -n \(limit) && exec \"$0\" \"$@\" 2>&1",
                    CLI.binary.path,
                ] + arguments
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }

        /// An environment in which `library` (e.g. `libcrypto.so.3`) cannot be used: libm under its
        /// name, and its development name (`libcrypto.so`, tried next), first on LD_LIBRARY_PATH.
        static func environment(without library: String, in dir: URL) throws -> [String: String] {
            let impostor = dir.appendingPathComponent("lib")
            try FileManager.default.createDirectory(at: impostor, withIntermediateDirectories: true)
            let libm = try #require(
                ["/lib/x86_64-linux-gnu/libm.so.6", "/lib/aarch64-linux-gnu/libm.so.6", "/lib64/libm.so.6"].first {
                    FileManager.default.fileExists(atPath: $0)
                })
            for name in [library, String(library[..<library.range(of: ".so")!.upperBound])] {
                try FileManager.default.copyItem(atPath: libm, toPath: impostor.appendingPathComponent(name).path)
            }
            return ["LD_LIBRARY_PATH": impostor.path]
        }

        /// An environment in which `library` cannot serve (another library under its name comes
        /// first on LD_LIBRARY_PATH), checked to refuse a save into a new library: exit 1 naming
        /// `package`, and no library made.
        static func refusingANewLibrary(
            without library: String, package: String, in dir: URL, also environment: [String: String] = [:]
        ) throws -> [String: String] {
            let without = try Self.environment(without: library, in: dir).merging(environment) { $1 }
            let fresh = dir.appendingPathComponent("New.albumlibrary").path
            let photo = CLI.examples.appendingPathComponent("harbour.jpg").path
            let refused = try CLI.run(["save", "--album", "A", "--library", fresh, photo], environment: without)
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("install \(package)"), "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: fresh))
            return without
        }

        /// Without a working libcrypto, where hashing needs it (`ALBUMKIT_SHA256=libcrypto` makes it
        /// so on a processor with SHA instructions), a save, a new library, verify and repair fail
        /// naming the package to install, and nothing is made or changed; reading a catalog still
        /// works.
        @Test func aMissingLibcryptoIsNamedAndNothingIsMade() throws {
            try CLI.withTemporaryDirectory { dir in
                let without = try Self.refusingANewLibrary(
                    without: "libcrypto.so.3", package: "libssl3", in: dir, also: ["ALBUMKIT_SHA256": "libcrypto"])
                let photo = CLI.examples.appendingPathComponent("harbour.jpg").path

                let kept = dir.appendingPathComponent("Kept.albumlibrary").path
                #expect(try CLI.run(["save", "--album", "A", "--library", kept, photo]).status == 0)
                let folders = dir.appendingPathComponent("Folders")
                try FileManager.default.createDirectory(at: folders, withIntermediateDirectories: true)
                // What was saved; opening may still tidy the library's own bookkeeping (owners/).
                func saved() throws -> [String: Data] {
                    let root = URL(fileURLWithPath: kept)
                    var files: [String: Data] = [:]
                    for path in DeleteCrashTests.files(under: root)
                    where path.hasPrefix("originals/") || path.hasPrefix("journal/") {
                        files[path] = try Data(contentsOf: root.appendingPathComponent(path))
                    }
                    return files
                }
                let before = try saved()
                #expect(before.count == 2)
                for command in [
                    ["save", "--album", "B", "--library", kept, photo], ["verify", "--library", kept],
                    ["repair", "--library", kept],
                    ["save", "--folders", "--album", "B", "--library", folders.path, photo],
                ] {
                    let run = try CLI.run(command, environment: without)
                    #expect(run.status == 1, "\(command)")
                    #expect(run.stderr.contains("install libssl3"), "\(command)")
                    #expect(run.stderr.split(separator: "\n").count <= 2, "\(command): \(run.stderr)")
                }
                #expect(try saved() == before)
                #expect(DeleteCrashTests.files(under: folders).isEmpty)
                let newFolders = dir.appendingPathComponent("NewFolders").path
                let folderRun = try CLI.run(
                    ["save", "--folders", "--album", "B", "--library", newFolders, photo], environment: without)
                #expect(folderRun.status == 1 && folderRun.stderr.contains("install libssl3"))
                #expect(!FileManager.default.fileExists(atPath: newFolders))
                let albums = try CLI.run(["albums", "--library", kept], environment: without)
                #expect(albums.status == 0)
                #expect(albums.stdout.contains(" 1  ") && albums.stdout.hasSuffix("  A\n"))
            }
        }

        /// On a processor with SHA instructions, nothing that hashes needs libcrypto: with it
        /// unusable, saves into a new catalog and a folder library, verify and repair all work, and
        /// the hashes are the standard's (`sha256sum`'s for the example photo).
        @Test(.enabled(if: CLI.processorHashes)) func theProcessorHashesWithoutLibcrypto() throws {
            try CLI.withTemporaryDirectory { dir in
                let without = try Self.environment(without: "libcrypto.so.3", in: dir)
                let photo = CLI.examples.appendingPathComponent("harbour.jpg").path
                let lib = dir.appendingPathComponent("L.albumlibrary").path
                for command in [
                    ["save", "--album", "A", "--library", lib, photo], ["verify", "--library", lib],
                    ["repair", "--library", lib],
                    ["save", "--folders", "--album", "A", "--library", dir.appendingPathComponent("F").path, photo],
                ] {
                    let run = try CLI.run(command, environment: without)
                    #expect(run.status == 0, "\(command): \(run.stderr)")
                }
                let json = try CLI.run(["--json", "assets", "--library", lib], environment: without)
                let sha256sum = "3d36cf1ffd7a26dd862d5560754b899d583ec596e0267d18e239cdc12cff29be"  // of harbour.jpg
                #expect(json.stdout.contains("\"sha256\":\"\(sha256sum)\""), "\(json.stdout)")
            }
        }

        /// A libsqlite3 that cannot serve (here another library under its name, found first on
        /// LD_LIBRARY_PATH) is named with the package to install, before a new library's folders
        /// are made; an existing library is left as it was, and repair does not take its catalog
        /// for damaged.
        @Test func aMissingSQLiteIsNamedAndNothingIsMade() throws {
            try CLI.withTemporaryDirectory { dir in
                let without = try Self.refusingANewLibrary(
                    without: "libsqlite3.so.0", package: "libsqlite3-0", in: dir)
                let photo = CLI.examples.appendingPathComponent("harbour.jpg").path

                let kept = dir.appendingPathComponent("Kept.albumlibrary").path
                #expect(try CLI.run(["save", "--album", "A", "--library", kept, photo]).status == 0)
                func contents() throws -> [String: Data] {
                    let root = URL(fileURLWithPath: kept)
                    var files: [String: Data] = [:]
                    for path in DeleteCrashTests.files(under: root) {
                        files[path] = try Data(contentsOf: root.appendingPathComponent(path))
                    }
                    return files
                }
                let before = try contents()
                #expect(before.keys.contains("catalog.sqlite"))
                for command in [["albums"], ["repair"], ["save", "--album", "B", photo]] {
                    let run = try CLI.run(command + ["--library", kept], environment: without)
                    #expect(run.status == 1, "\(command)")
                    #expect(run.stderr.contains("install libsqlite3-0"), "\(command)")
                }
                #expect(try contents() == before)
                #expect(try CLI.run(["verify", "--library", kept]).status == 0)
            }
        }
    #endif

    @Test func suggestionsAndVersion() throws {
        let sav = try CLI.run(["sav", "x.jpg"])
        #expect(sav.status == 2)
        #expect(sav.stderr.contains("Did you mean 'save'?"))
        let version = try CLI.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("album "))
        try CLI.withTemporaryDirectory { dir in
            let lib = dir.appendingPathComponent("S.albumlibrary").path
            let photo = CLI.examples.appendingPathComponent("harbour.jpg").path
            let first = try CLI.run(["save", "--album", "Touch Code Magazine", "--library", lib, photo])
            #expect(first.status == 0)
            #expect(!first.stderr.contains("note:"))  // no other album: nothing to compare with
            for typo in ["Touch Code Magazin", "touch code magazine"] {
                let show = try CLI.run(["show", typo, "--json", "--library", lib])
                #expect(show.status == 1)
                #expect(show.stderr.contains("Did you mean \"Touch Code Magazine\"?"))
                let error = (show.json() as? [String: Any])?["error"] as? [String: Any]
                #expect(error?["code"] as? String == "albumNotFound")
                #expect(error?["suggestion"] as? String == "Touch Code Magazine")
            }
            let created = try CLI.run(["save", "--album", "Touch Code Magazin", "--library", lib, photo])
            #expect(created.stderr.contains("there is also \"Touch Code Magazine\""))
            // One-letter titles are not typos of each other
            #expect(try CLI.run(["save", "--album", "A", "--library", lib, photo]).status == 0)
            let other = try CLI.run(["save", "--album", "B", "--library", lib, photo])
            #expect(other.status == 0 && !other.stderr.contains("typo"), "\(other.stderr)")
        }
    }

    @Test func showPrintsAlignedColumnsWithSizesCameraGPSAndPath() throws {
        try CLI.withTemporaryDirectory { dir in
            let lib = dir.appendingPathComponent("Show.albumlibrary").path
            let files = ["harbour.jpg", "clip.mp4"].map { CLI.examples.appendingPathComponent($0).path }
            #expect(try CLI.run(["save", "--album", "Trip", "--library", lib] + files).status == 0)
            // -v: every column, the path last and ids in full
            let show = try CLI.run(["show", "-v", "Trip", "--library", lib])
            #expect(show.status == 0)
            let lines = show.lines
            #expect(lines.count == 3)
            #expect(lines[0].hasPrefix("NAME"))
            // Every column starts at the same place on every line.
            let header = Array(lines[0])
            for name in ["KIND", "TAKEN", "FORMAT", "ID", "PATH"] {
                let column =
                    try #require(lines[0].range(of: "  " + name)).upperBound.utf16Offset(in: lines[0]) - name.count
                for line in lines.dropFirst().map(Array.init) {
                    #expect(line.count > column && line[column] != " " && line[column - 1] == " ", "\(name)")
                }
                #expect(header[column - 1] == " ")
            }
            let harbour = try #require(lines.first { $0.hasPrefix("harbour.jpg") })
            #expect(harbour.contains("4.2 KB"))
            #expect(harbour.contains("AlbumKit Example Camera"))
            #expect(harbour.contains("59.32930, 18.06860"))
            let path = try #require(harbour.split(separator: " ").last.map(String.init))
            #expect(FileManager.default.fileExists(atPath: path))
            let json = try #require(
                try CLI.run(["show", "Trip", "--json", "--library", lib]).json() as? [[String: Any]])
            #expect(json.allSatisfy { FileManager.default.fileExists(atPath: $0["path"] as? String ?? "") })
        }
    }

    @Test func everyCommandSpeaksJSON() throws {
        try CLI.withTemporaryDirectory { dir in
            let lib = dir.appendingPathComponent("J.albumlibrary").path
            let create = try CLI.run(["create", "Trips", "--json", "--library", lib])
            let album = try #require(create.json() as? [String: Any])
            #expect(album["title"] as? String == "Trips")
            #expect(album["count"] as? Int == 0)
            let id = try #require(album["id"] as? String)
            let rename = try #require(
                try CLI.run(["rename", "Trips", "Trips 2026", "--json", "--library", lib]).json() as? [String: Any])
            #expect(rename["id"] as? String == id)
            #expect(rename["title"] as? String == "Trips 2026")
            #expect(rename["previousTitle"] as? String == "Trips")
            let delete = try #require(
                try CLI.run(["delete", "Trips 2026", "--json", "--library", lib]).json() as? [String: Any])
            #expect(delete["id"] as? String == id)
            #expect(delete["deleted"] as? Bool == true)
            let missing = try CLI.run(["delete", "Nope", "--json", "--library", lib])
            #expect(missing.status == 1)
            #expect(
                ((missing.json() as? [String: Any])?["error"] as? [String: Any])?["code"] as? String == "albumNotFound")
        }
    }

    /// Nothing under an imported folder is passed over in silence: names that are not UTF-8 are
    /// saved (and their bytes given in JSON), links to files saved, links to folders, broken links
    /// and pipes listed as skipped. Before, all of them were left out without a word, exit 0.
    @Test func importSavesOddNamesAndReportsLinksAndPipes() throws {
        try CLI.withTemporaryDirectory { dir in
            let lib = dir.appendingPathComponent("W.albumlibrary").path
            let tree = dir.appendingPathComponent("tree")
            let real = tree.appendingPathComponent("real")
            try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
            let sources = try Self.photos(3, in: dir)
            // A name with the bytes FE FF, which are never UTF-8.
            let odd = Array(tree.path.utf8) + Array("/bad".utf8) + [0xFE, 0xFF] + Array(".jpg".utf8)
            #expect(rename(sources[0], odd.map { CChar(bitPattern: $0) } + [0]) == 0)
            try FileManager.default.moveItem(atPath: sources[1], toPath: real.appendingPathComponent("r.jpg").path)
            try FileManager.default.createSymbolicLink(
                atPath: tree.appendingPathComponent("linked.jpg").path, withDestinationPath: sources[2])
            try FileManager.default.createSymbolicLink(
                atPath: tree.appendingPathComponent("linkdir").path, withDestinationPath: "real")
            try FileManager.default.createSymbolicLink(
                atPath: tree.appendingPathComponent("broken.jpg").path, withDestinationPath: "gone.jpg")
            #expect(mkfifo(tree.appendingPathComponent("pipe.jpg").path, 0o644) == 0)

            let run = try CLI.run(["import", "-v", "--json", "--album", "Walk", "--library", lib, tree.path])
            #expect(run.status == 0, "\(run.stderr)")
            let lines = run.jsonLines()
            #expect(lines.filter { $0["asset"] != nil }.count == 3)
            let skipped = Dictionary(
                uniqueKeysWithValues: lines.compactMap { line in
                    (line["skipped"] as? String).map { ((line["file"] as! NSString).lastPathComponent, $0) }
                })
            #expect(skipped == ["broken.jpg": "brokenLink", "linkdir": "linkToFolder", "pipe.jpg": "notMedia"])
            // The name that is not UTF-8: shown with U+FFFD, and its exact bytes in base64.
            let bad = try #require(lines.first { $0["fileBytes"] != nil })
            #expect(bad["asset"] != nil)
            #expect(Data(base64Encoded: bad["fileBytes"] as! String).map(Array.init) == odd)
            #expect(run.stderr.contains("album: 3 saved, 1 skipped (not photos or videos), 2 symbolic links skipped"))
            // Without -v, the summary still says what was left out, and how to see it.
            let quiet = try CLI.run(["import", "--album", "Walk", "--library", lib, tree.path])
            #expect(quiet.status == 0)
            #expect(quiet.stderr.contains("2 symbolic links skipped (to folders or to nothing; -v lists them)"))
            // A folder named on the command line whose name is not UTF-8 is walked with -r, or
            // refused with the hint to add -r.
            let oddFolder = Array(dir.path.utf8) + Array("/odd".utf8) + [0xFF]
            #expect(rename(tree.path, oddFolder.map { CChar(bitPattern: $0) } + [0]) == 0)
            let folderName = String(decoding: oddFolder, as: UTF8.self)
            let listed = try CLI.run(["save", "-0", "-r", "--json", "--library", lib, "-"], stdinData: Data(oddFolder))
            #expect(listed.status == 0, "\(listed.stderr)")
            #expect(listed.jsonLines().filter { $0["existing"] as? Bool == true }.count == 3)
            let refused = try CLI.run(["save", "-0", "--json", "--library", lib, "-"], stdinData: Data(oddFolder))
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("\(folderName) is a folder; add -r"))
        }
    }

    /// A newline or an escape sequence in a file name split the one-line-per-file output and
    /// reached the terminal raw. Text output shows them escaped; JSON keeps them exact.
    @Test func controlCharactersInNamesAreShownEscaped() throws {
        try CLI.withTemporaryDirectory { dir in
            let lib = dir.appendingPathComponent("E.albumlibrary").path
            let sources = try Self.photos(2, in: dir)
            let newline = dir.appendingPathComponent("new\nline.jpg").path
            let escape = dir.appendingPathComponent("esc\u{1B}[31mred\u{202E}gpj.jpg").path
            try FileManager.default.moveItem(atPath: sources[0], toPath: newline)
            try FileManager.default.moveItem(atPath: sources[1], toPath: escape)
            let text = try CLI.run(["save", "--album", "Esc", "--library", lib, newline, escape])
            #expect(text.status == 0, "\(text.stderr)")
            #expect(text.lines.count == 2)
            #expect(text.stdout.contains("new\\nline.jpg in "))
            #expect(text.stdout.contains("esc\\x1B[31mred\\u{202E}gpj.jpg in "))
            #expect(!text.stdout.contains("\u{1B}"))
            // The album is created once: said on the first line only.
            #expect(text.stdout.components(separatedBy: "(album created)").count == 2)
            let show = try CLI.run(["show", "Esc", "--library", lib])
            #expect(show.lines.count == 3)  // the header and two rows
            #expect(!show.stdout.contains("\u{1B}"))
            let json = try CLI.run(["show", "Esc", "--json", "--library", lib])
            let names = ((json.json() as? [[String: Any]]) ?? []).compactMap { $0["file"] as? String }
            #expect(Set(names) == ["new\nline.jpg", "esc\u{1B}[31mred\u{202E}gpj.jpg"])
            let missing = try CLI.run(["save", "--library", lib, dir.path + "/gone\r"])
            #expect(missing.stderr.contains("gone\\r"))
        }
    }

    @Test func importSavesATreeSkipsOtherFilesAndFilters() throws {
        try CLI.withTemporaryDirectory { dir in
            let lib = dir.appendingPathComponent("I.albumlibrary").path
            let tree = dir.appendingPathComponent("DCIM")
            let sub = tree.appendingPathComponent("100CANON")
            let skipped = tree.appendingPathComponent("thumbs")
            for folder in [sub, skipped, tree.appendingPathComponent(".hidden")] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            _ = try Self.photos(3, in: sub)
            _ = try Self.photos(2, in: skipped, prefix: "T_")
            _ = try Self.photos(1, in: tree.appendingPathComponent(".hidden"))
            try FileManager.default.copyItem(
                at: CLI.examples.appendingPathComponent("clip.mp4"), to: tree.appendingPathComponent("clip.MP4"))
            try Data("notes".utf8).write(to: sub.appendingPathComponent("notes.txt"))
            try Data("<x/>".utf8).write(to: sub.appendingPathComponent("IMG_0000.xmp"))

            // --dry-run checks and reports, and writes nothing. The two thumbnails hold the bytes of
            // two photos: they would be already in the library, not saved (before: "6 of 8 would be
            // saved", as a real import said "6 of 8 saved" while the album held 4).
            let dry = try CLI.run(["import", "--dry-run", "--json", "--album", "Trip", "--library", lib, tree.path])
            #expect(dry.status == 0, "\(dry.stderr)")
            #expect(dry.jsonLines().filter { $0["wouldSave"] as? Bool == true }.count == 4)
            #expect(dry.jsonLines().filter { $0["existing"] as? Bool == true }.count == 2)
            // IMG_0000.xmp is IMG_0000.jpg's sidecar: saved with it, not skipped.
            #expect(
                dry.stderr.contains("4 would be saved, 2 already in the library, 1 skipped (not photos or videos)"),
                "\(dry.stderr)")
            #expect(
                dry.jsonLines().contains { ($0["companions"] as? [String])?.first?.hasSuffix("IMG_0000.xmp") == true })
            #expect(!FileManager.default.fileExists(atPath: lib))

            let run = try CLI.run(
                ["import", "--json", "--album", "Trip", "--exclude", "thumbs", "--library", lib, tree.path])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.jsonLines().count == 4)  // 3 photos + the video; the skipped are counted, not listed
            #expect(
                run.stderr.contains("album: 4 saved, 1 skipped (not photos or videos)"),
                "\(run.stderr)")
            // -v lists each skipped file; saving again finds every file already there.
            let verbose = try CLI.run(
                ["import", "-v", "--json", "--album", "Trip", "--exclude", "thumbs", "--library", lib, tree.path])
            #expect(verbose.jsonLines().filter { $0["skipped"] as? String == "notMedia" }.count == 1)
            #expect(verbose.jsonLines().filter { $0["skipped"] as? String == "sidecarWithoutPhoto" }.isEmpty)
            #expect(verbose.jsonLines().filter { $0["existing"] as? Bool == true }.count == 4)
            let only = try CLI.run(
                ["save", "-r", "--include", "*.mp4", "--album", "Clips", "--library", lib, tree.path])
            #expect(only.status == 0)
            #expect(only.stderr.contains("album: 0 saved, 1 already in the library"))
            // A pattern with a slash matches the end of the path, as rsync's: `100CANON/*` from the
            // folder above DCIM too (before: nothing matched, in silence); `/…` is anchored
            let above = tree.deletingLastPathComponent()
            func dryRun(_ pattern: String) throws -> String {
                try CLI.run(["save", "-r", "--dry-run", "--include", pattern, "--library", lib, above.path]).stderr
            }
            let unanchored = try dryRun("100CANON/*.jpg")
            #expect(unanchored.contains("3 already in the library"), "\(unanchored)")
            #expect(try dryRun("/DCIM/100CANON/*.jpg").contains("3 already in the library"))
            #expect(try !dryRun("/100CANON/*.jpg").contains("already in the library"))
            // A repeated option keeps every value: both patterns exclude.
            let both = try CLI.run(
                [
                    "import", "--dry-run", "--json", "--exclude", "thumbs", "--exclude", "*.MP4", "--library", lib,
                    tree.path,
                ])
            #expect(both.status == 0, "\(both.stderr)")
            #expect(both.jsonLines().filter { $0["existing"] as? Bool == true }.count == 3)
            // A folder without -r is refused with a hint, alone.
            let plain = try CLI.run(["save", "--library", lib, tree.path])
            #expect(plain.status == 1)
            #expect(plain.stderr.contains("add -r"))
        }
    }

    @Test func helpManPageAndCompletionsShareOneSource() throws {
        let help = try CLI.run(["--help"]).stdout
        let man = try CLI.run(["man"])
        #expect(man.status == 0)
        let completions = try ["bash", "zsh", "fish"].map { shell in
            let run = try CLI.run(["completions", shell])
            #expect(run.status == 0)
            return run.stdout
        }
        for command in ["save", "import", "albums", "show", "create", "rename", "delete", "verify", "completions"] {
            #expect(help.contains("  \(command) "))
            #expect(man.stdout.contains(".B album \(command)") || man.stdout.contains("album \(command)"))
            for script in completions { #expect(script.contains(command)) }
        }
        let saveHelp = try CLI.run(["save", "--help"]).stdout
        for option in ["--album", "--null", "--recursive", "--include", "--exclude", "--dry-run"] {
            #expect(saveHelp.contains(option))
            #expect(man.stdout.contains(option.replacingOccurrences(of: "-", with: "\\-")))
            #expect(completions[0].contains(option))
        }
        #expect(try CLI.run(["completions", "tcsh"]).status == 2)
        // The bash script is valid bash; the man page renders without warnings.
        let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("album-completion-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try completions[0].write(to: dir.appendingPathComponent("album.bash"), atomically: true, encoding: .utf8)
        #expect(try Self.shell("bash -n \(dir.path)/album.bash && . \(dir.path)/album.bash && complete -p album") == 0)
        // zsh and fish check their scripts' syntax (.ci/run installs both: missing there, a failure).
        for (index, shell) in [(1, "zsh"), (2, "fish")] where ExternalTool.isInstalled(shell) {
            let file = dir.appendingPathComponent("album.\(shell)")
            try completions[index].write(to: file, atomically: true, encoding: .utf8)
            #expect(try Self.shell("\(shell) -n \(file.path)") == 0, "\(shell) rejects its completion script")
        }
        try man.stdout.write(to: dir.appendingPathComponent("album.1"), atomically: true, encoding: .utf8)
        if ExternalTool.isInstalled("groff") {
            #expect(try Self.shell("test -z \"$(groff -man -Tutf8 -ww -z \(dir.path)/album.1 2>&1)\"") == 0)
        }
    }

    static func shell(_ command: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", command]
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// 1 500 photos, so that drawing outlasts the 0.2 s before a rate is shown even on a fast
    /// machine: about 27 s on 2 loaded cores.
    @Test func progressOnATerminalHasRateAndEndsItsLine() throws {
        // script(1) gives the command a terminal (bsdutils, an essential package: always there).
        try CLI.withTemporaryDirectory { dir in
            let lib = dir.appendingPathComponent("P.albumlibrary").path
            let files = try Self.photos(1_500, in: dir)
            let list = dir.appendingPathComponent("list")
            try files.joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)
            // Enough files that drawing goes on past the 0.2 s before a rate is shown (staging on
            // every core prepares a few hundred photos faster than that).
            // stderr is a terminal (script's pty), stdout a file: progress is drawn even with --json.
            let command =
                "\(CLI.binary.path) save --json --album P --library \(lib) - < \(list.path) > \(dir.path)/out.jsonl"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            process.arguments = ["-q", "-e", "-c", command, "\(dir.path)/typescript"]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let screen = try String(contentsOf: dir.appendingPathComponent("typescript"), encoding: .utf8)
            // Per file (not per commit of 128), with a rate, and erased at the end.
            let draws = screen.components(separatedBy: "\r\u{1B}[K").filter { $0.contains("/1500 files") }
            #expect(draws.contains { $0.hasPrefix("1/1500 files") })
            #expect(draws.contains { $0.contains("/s") })
            #expect(Set(draws).count == draws.count, "the same progress is never drawn twice")
            let last = try #require(screen.range(of: "/1500 files", options: .backwards))
            #expect(screen[last.upperBound...].contains("\r\u{1B}[K"), "the progress line is erased at the end")
            #expect(
                try String(contentsOf: dir.appendingPathComponent("out.jsonl"), encoding: .utf8).split(separator: "\n")
                    .count == 1_500)
        }
    }
}
