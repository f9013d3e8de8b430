import AlbumKitMedia
import AlbumTestSupport
import Foundation
import Testing

/// `album assets`, `add`, `remove`, `delete-asset`, `export` and album ids (`id:ID`), run as a
/// user would: the real binary against a real catalog.
@Suite(.onThreadsOfTheirOwn) struct AssetCommandTests {
    static let corpus = CLI.packageRoot.appendingPathComponent("Tests/AlbumKitMediaTests/Fixtures/corpus")

    /// A catalog with three dated photos in "Trips" and a video outside any album, saved one at a
    /// time (assets saved together share their date added); returns the library arguments and the
    /// asset ids in saving order.
    static func library(in dir: URL) throws -> (args: [String], ids: [String]) {
        let args = ["--library", dir.appendingPathComponent("Test.albumlibrary").path]
        let photos = ["jpeg-orientation-3.jpg", "jpeg-orientation-1.jpg", "jpeg-orientation-2.jpg"].map {
            corpus.appendingPathComponent($0).path
        }
        var ids: [String] = []
        for photo in photos {
            let saved = try CLI.run(args + ["save", "--json", "--album", "Trips", photo])
            #expect(saved.status == 0, "\(saved.stderr)")
            ids += saved.jsonLines().compactMap { $0["asset"] as? String }
        }
        let video = try CLI.run(args + ["save", "--json", corpus.appendingPathComponent("webm-vp9.webm").path])
        #expect(video.status == 0, "\(video.stderr)")
        ids += video.jsonLines().compactMap { $0["asset"] as? String }
        #expect(ids.count == 4)
        return (args, ids)
    }

    static func ids(_ run: CLI.Run) -> [String] {
        ((run.json() as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }
    }

    @Test func assetsListsTheWholeLibraryInEitherOrderAndPages() throws {
        try CLI.withTemporaryDirectory { dir in
            let (args, ids) = try Self.library(in: dir)
            let added = try CLI.run(args + ["assets", "--json"])
            #expect(added.status == 0)
            #expect(Self.ids(added) == ids)
            // Taken 2024-05-01, -02, -03; the WebM was taken 2024-05-01T10:20:30Z too, id decides
            let taken = try CLI.run(args + ["assets", "--order", "taken", "--json"])
            #expect(Array(Self.ids(taken).suffix(2)) == [ids[2], ids[0]])
            // Two pages of two
            let first = try CLI.run(args + ["assets", "--limit", "2", "--json"])
            #expect(Self.ids(first) == Array(ids[0..<2]))
            let cursor = try #require(first.stderr.split(separator: "'").dropFirst().first.map(String.init))
            let second = try CLI.run(args + ["assets", "--limit", "2", "--after", cursor, "--json"])
            #expect(Self.ids(second) == Array(ids[2..<4]))
            #expect(!second.stderr.contains("next page"))
            // By date taken: the hint is the whole next command, --order included, and runs as printed.
            let takenFirst = try CLI.run(args + ["assets", "--order", "taken", "--limit", "2", "--json"])
            let hint = try #require(
                takenFirst.stderr.split(separator: "\n").first { $0.hasPrefix("next page: album ") })
            #expect(hint.contains("--order taken --limit 2 --after '"))
            let command = String(hint.dropFirst("next page: album ".count)) + " --json"
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/sh")
            shell.arguments = ["-c", "\"$0\" " + command, CLI.binary.path]
            let output = Pipe()
            shell.standardOutput = output
            try shell.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            shell.waitUntilExit()
            let takenRest = ((try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] ?? []).compactMap {
                $0["id"] as? String
            }
            #expect(Self.ids(takenFirst) + takenRest == Self.ids(taken))
            // A cursor of one order is refused in the other (it gave an empty page, exit 0).
            let mixed = try CLI.run(args + ["assets", "--order", "taken", "--after", cursor, "--json"])
            #expect(mixed.status == 1)
            #expect(
                ((mixed.json() as? [String: Any])?["error"] as? [String: Any])?["code"] as? String == "invalidArgument")
            #expect(mixed.stderr.contains("a cursor of a listing by date added, not by date taken"))
            // Text: a table with the start of every id (enough to name it), in full with -v
            let text = try CLI.run(args + ["assets"])
            #expect(
                ids.allSatisfy { text.stdout.contains($0.prefix(8)) && !text.stdout.contains($0) }, "\(text.stdout)")
            let verbose = try CLI.run(args + ["assets", "-v"])
            #expect(ids.allSatisfy { verbose.stdout.contains($0) }, "\(verbose.stdout)")
            let bad = try CLI.run(args + ["assets", "--order", "sideways"])
            #expect(bad.status == 2)
        }
    }

    @Test func albumsByIdAddRemoveAndDelete() throws {
        try CLI.withTemporaryDirectory { dir in
            let (args, ids) = try Self.library(in: dir)
            let created = try CLI.run(args + ["create", "--json", "Favourites"])
            let favourites = try #require((created.json() as? [String: Any])?["id"] as? String)
            // add by id: form, remove by title
            let add = try CLI.run(args + ["add", "--json", "id:\(favourites)", ids[3], ids[0]])
            #expect(add.status == 0, "\(add.stderr)")
            #expect((add.json() as? [String: Any])?["count"] as? Int == 2)
            #expect(Self.ids(try CLI.run(args + ["show", "--json", "id:\(favourites)"])) == [ids[3], ids[0]])
            let remove = try CLI.run(args + ["remove", "Favourites", ids[3]])
            #expect(remove.status == 0)
            #expect(Self.ids(try CLI.run(args + ["show", "--json", "Favourites"])) == [ids[0]])
            #expect(Self.ids(try CLI.run(args + ["assets", "--json"])).count == 4)  // still in the library
            // rename by id keeps the id
            #expect(try CLI.run(args + ["rename", "id:\(favourites)", "Best"]).status == 0)
            #expect(Self.ids(try CLI.run(args + ["show", "--json", "Best"])) == [ids[0]])
            // delete an asset: gone from the library and from both albums
            let delete = try CLI.run(args + ["delete-asset", "--json", ids[0]])
            #expect(delete.status == 0, "\(delete.stderr)")
            #expect(Self.ids(try CLI.run(args + ["assets", "--json"])) == [ids[1], ids[2], ids[3]])
            #expect(Self.ids(try CLI.run(args + ["show", "--json", "Trips"])) == [ids[1], ids[2]])
            #expect(try CLI.run(args + ["verify"]).status == 0)
            // unknown ids and albums: exit 1 with the code, nothing changed
            let unknown = try CLI.run(args + ["delete-asset", "--json", ids[1], "nope"])
            #expect(unknown.status == 1)
            #expect(unknown.stdout.contains("assetNotFound"))
            #expect(Self.ids(try CLI.run(args + ["assets", "--json"])).count == 3)
            let noAlbum = try CLI.run(args + ["show", "id:nope"])
            #expect(noAlbum.status == 1)
            // save into an album by id
            let photo = Self.corpus.appendingPathComponent("png-plain.png").path
            let byID = try CLI.run(args + ["save", "--json", "--album", "id:\(favourites)", photo])
            #expect(byID.status == 0, "\(byID.stderr)")
            #expect(byID.jsonLines().first?["album"] as? String == favourites)
            let gone = try CLI.run(args + ["save", "--json", "--album", "id:nope", photo])
            #expect(gone.status == 1)
            #expect(!(try CLI.run(args + ["albums"]).stdout.contains("id:nope")))
            // a title that starts with id: is written after title:
            #expect(try CLI.run(args + ["create", "title:id:2024"]).status == 0)
            #expect(try CLI.run(args + ["albums"]).stdout.contains("id:2024"))
        }
    }

    /// A catalog's deletions go to recently deleted: `deleted` lists them, `restore` brings one back
    /// into its album, `purge` removes one for good, file and all.
    @Test func recentlyDeletedInACatalogLibrary() throws {
        try CLI.withTemporaryDirectory { dir in
            let (args, ids) = try Self.library(in: dir)
            let deleted = try CLI.run(args + ["delete-asset", ids[0], ids[1]])
            #expect(deleted.status == 0, "\(deleted.stderr)")
            #expect(deleted.stdout.contains("kept in recently deleted"))
            let listed = try CLI.run(args + ["deleted", "--json"])
            let rows = listed.json() as? [[String: Any]] ?? []
            #expect(Set(rows.compactMap { $0["id"] as? String }) == [ids[0], ids[1]], "\(listed.stdout)")
            #expect(try CLI.run(args + ["restore", ids[0]]).status == 0)
            let show = try CLI.run(args + ["show", "--json", "Trips"])
            #expect(show.stdout.contains(ids[0]) && !show.stdout.contains(ids[1]))
            let file = try #require(rows.first { $0["id"] as? String == ids[1] }?["file"] as? String)
            #expect(FileManager.default.fileExists(atPath: file))
            #expect(try CLI.run(args + ["purge", ids[1]]).status == 0)
            #expect(!FileManager.default.fileExists(atPath: file))
            #expect((try CLI.run(args + ["deleted", "--json"]).json() as? [[String: Any]])?.isEmpty == true)
            #expect(try CLI.run(args + ["verify"]).status == 0)
        }
    }

    @Test func folderLibraryDeletesToTheTrash() throws {
        try CLI.withTemporaryDirectory { dir in
            let pictures = dir.appendingPathComponent("Pictures")
            try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
            let env = ["XDG_DATA_HOME": dir.appendingPathComponent("data").path]
            let args = ["--library", pictures.path, "--folders"]
            let photo = Self.corpus.appendingPathComponent("jpeg-plain.jpg").path
            let saved = try CLI.run(args + ["save", "--json", "--album", "Trips", photo], environment: env)
            let id = try #require(saved.jsonLines().first?["asset"] as? String)
            #expect(Self.ids(try CLI.run(args + ["assets", "--json"], environment: env)) == [id])
            #expect(try CLI.run(args + ["create", "Best"], environment: env).status == 0)
            let added = try CLI.run(args + ["add", "Best", id], environment: env)
            #expect(added.status == 0, "\(added.stderr)")
            #expect(FileManager.default.fileExists(atPath: pictures.appendingPathComponent("Best/jpeg-plain.jpg").path))
            let deleted = try CLI.run(args + ["delete-asset", "--json", id], environment: env)
            #expect(deleted.status == 0, "\(deleted.stderr)")
            let trash = try #require((deleted.json() as? [[String: Any]])?.first?["trash"] as? String)
            #expect(trash.hasPrefix(dir.appendingPathComponent("data/Trash/files").path))
            #expect(
                !FileManager.default.fileExists(atPath: pictures.appendingPathComponent("Trips/jpeg-plain.jpg").path))
            #expect(FileManager.default.fileExists(atPath: pictures.appendingPathComponent("Best/jpeg-plain.jpg").path))
        }
    }

    @Test func exportWritesOriginalsWithNamesAndReport() throws {
        try CLI.withTemporaryDirectory { dir in
            let (args, _) = try Self.library(in: dir)
            let out = dir.appendingPathComponent("Exported")
            let run = try CLI.run(args + ["export", "--json", "Trips", out.path])
            #expect(run.status == 0, "\(run.stderr)")
            let report = try #require(run.json() as? [String: Any])
            let files = (report["exported"] as? [[String: Any]] ?? []).compactMap { $0["file"] as? String }
            #expect(files == ["jpeg-orientation-3.jpg", "jpeg-orientation-1.jpg", "jpeg-orientation-2.jpg"])
            #expect((report["failed"] as? [Any])?.isEmpty == true)
            for name in files {
                let original = try Data(contentsOf: Self.corpus.appendingPathComponent(name))
                #expect(try Data(contentsOf: out.appendingPathComponent(name)) == original)
            }
            // Again: a sync, the copies found, nothing written
            let again = try CLI.run(args + ["export", "Trips", out.path])
            #expect(again.status == 0)
            #expect(
                !FileManager.default.fileExists(atPath: out.appendingPathComponent("jpeg-orientation-1 2.jpg").path))
            #expect(again.stdout.contains("exported 0 of 3 to \(out.path), 3 already there"), "\(again.stdout)")
            // And a file of that name the user changed is kept, the original written beside it
            try Data("edited".utf8).write(to: out.appendingPathComponent("jpeg-orientation-1.jpg"))
            let third = try CLI.run(args + ["export", "Trips", out.path])
            #expect(third.stdout.contains("exported 1 of 3 to \(out.path), 2 already there"), "\(third.stdout)")
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("jpeg-orientation-1 2.jpg").path))
        }
    }

    @Test func helpManAndCompletionsKnowTheNewCommands() throws {
        for command in ["assets", "add", "remove", "delete-asset", "export"] {
            let help = try CLI.run([command, "--help"])
            #expect(help.status == 0)
            #expect(help.stdout.contains("USAGE: album \(command)"))
        }
        #expect(try CLI.run(["--help"]).stdout.contains("id:ID"))
        #expect(try CLI.run(["man"]).stdout.contains("delete\\-asset"))
        #expect(try CLI.run(["completions", "bash"]).stdout.contains("delete-asset"))
        #expect(try CLI.run(["add", "OnlyTitle"]).status == 2)
    }

    @Test func listingsFitAnEightyColumnTerminalAndShowPathsAndWholeIDsWhenAsked() throws {
        try CLI.withTemporaryDirectory { dir in
            let library = dir.appendingPathComponent("T.albumlibrary").path
            let photo = CLI.examples.appendingPathComponent("harbour.jpg").path
            let saved = try CLI.run(["save", "--json", "--library", library, "--album", "Trips", photo])
            let id = try #require(saved.jsonLines().first?["asset"] as? String)
            // By default (a pipe too): no path, the id's start, which names the asset as the whole id does
            let plain = try CLI.run(["show", "Trips", "--library", library])
            #expect(plain.lines.first?.contains("PATH") == false && plain.lines.first?.contains("CAMERA") == true)
            #expect(plain.stdout.contains(" " + id.prefix(8)) && !plain.stdout.contains(id), "\(plain.stdout)")
            // -v: the path and the whole id
            let verbose = try CLI.run(["show", "-v", "Trips", "--library", library])
            #expect(verbose.lines.first?.hasSuffix("PATH") == true && verbose.stdout.contains(id), "\(verbose.stdout)")
            // --columns: those, in that order, ids whole; a name that is no column is a usage error
            let columns = try CLI.run(["assets", "--library", library, "--columns", "id,path"])
            #expect(columns.lines.first?.split(separator: " ") == ["ID", "PATH"], "\(columns.stdout)")
            #expect(columns.lines.last?.hasPrefix(id + "  /") == true, "\(columns.stdout)")
            let wrong = try CLI.run(["show", "Trips", "--library", library, "--columns", "name,colour"])
            #expect(wrong.status == 2 && wrong.stderr.contains("not 'colour'"), "\(wrong.stderr)")
            // On an 80-column terminal (a pseudo-terminal made by script(1)): every line fits, the id stays
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            let command = [CLI.binary.path, "show", "Trips", "--library", library].map {
                "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
            }.joined(separator: " ")
            process.arguments = ["-qec", command, "/dev/null"]
            process.environment = ["PATH": "/usr/bin:/bin", "HOME": dir.path, "COLUMNS": "80", "TERM": "dumb"]
            let out = Pipe()
            process.standardOutput = out
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(text)")
            let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).map(String.init)
            let table = lines.filter { !$0.hasPrefix("album:") }
            #expect(table.count == 2, "\(lines)")
            #expect(table.allSatisfy { $0.count <= 80 }, "\(table)")
            #expect(table.first?.contains("ID") == true && table.first?.contains("PATH") == false)
            #expect(table.last?.contains(String(id.prefix(8))) == true, "\(table)")
        }
    }

    @Test func assetsAreNamedByIdByTheStartOfOneOrByFileName() throws {
        try CLI.withTemporaryDirectory { dir in
            let args = ["--library", dir.appendingPathComponent("T.albumlibrary").path]
            let harbour = CLI.examples.appendingPathComponent("harbour.jpg").path
            let garden = CLI.examples.appendingPathComponent("garden.png").path
            let saved = try CLI.run(args + ["save", "--json", "--album", "Trips", harbour, garden]).jsonLines()
            let ids = saved.compactMap { $0["asset"] as? String }
            #expect(ids.count == 2)
            #expect(try CLI.run(args + ["create", "Best"]).status == 0)
            // A file name and the start of an id name one asset each
            let added = try CLI.run(args + ["add", "Best", "harbour.jpg", String(ids[1].prefix(8))])
            #expect(added.status == 0, "\(added.stderr)")
            let best = try CLI.run(args + ["show", "Best", "--json"]).json() as? [[String: Any]]
            #expect(Set(best?.compactMap { $0["id"] as? String } ?? []) == Set(ids))
            // A name no asset has is refused, naming it, and nothing changes
            let unknown = try CLI.run(args + ["remove", "Best", "harbour.jpg", "nothing.jpg"])
            #expect(unknown.status == 1 && unknown.stderr.contains("\"nothing.jpg\""), "\(unknown.stderr)")
            #expect((try CLI.run(args + ["show", "Best", "--json"]).json() as? [Any])?.count == 2)
            // A name two assets have is refused, naming both
            let copy = dir.appendingPathComponent("harbour.jpg")
            var bytes = try Data(contentsOf: URL(fileURLWithPath: harbour))
            bytes.append(0)
            try bytes.write(to: copy)
            #expect(try CLI.run(args + ["save", "--album", "Trips", copy.path]).status == 0)
            let twice = try CLI.run(args + ["delete-asset", "harbour.jpg"])
            #expect(twice.status == 1 && twice.stderr.contains("could be 2 assets"), "\(twice.stderr)")
            #expect((try CLI.run(args + ["show", "Trips", "--json"]).json() as? [Any])?.count == 3)
            // And a name in one album resolves among that album's assets
            #expect(try CLI.run(args + ["remove", "Best", "harbour.jpg"]).status == 0)
            #expect((try CLI.run(args + ["show", "Best", "--json"]).json() as? [Any])?.count == 1)
        }
    }

    @Test func bashCompletesCommandsOptionsAndTheValuesAnOptionTakes() throws {
        try CLI.withTemporaryDirectory { dir in
            let script = dir.appendingPathComponent("album.bash")
            try Data(try CLI.run(["completions", "bash"]).stdout.utf8).write(to: script)
            // Completes `album WORDS…` in a real bash with the generated script loaded
            func complete(_ words: [String]) throws -> [String] {
                let quoted = words.map { "'" + $0 + "'" }.joined(separator: " ")
                let program = """
                    source '\(script.path)'
                    COMP_WORDS=(album \(quoted)); COMP_CWORD=\(words.count)
                    _album; printf '%s\\n' "${COMPREPLY[@]}"
                    """
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/bin/bash")
                process.arguments = ["-c", program]
                let out = Pipe()
                process.standardOutput = out
                try process.run()
                let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                return text.split(separator: "\n").map(String.init).sorted()
            }
            #expect(try complete(["assets", "--order", ""]) == ["added", "taken"])
            #expect(try complete(["assets", "--order", "t"]) == ["taken"])
            #expect(try complete(["init", "--addressing", "v"]) == ["virtual"])
            #expect(try complete(["exp"]) == ["export"])
            #expect(try complete(["assets", "--or"]) == ["--order"])
        }
    }

    @Test(arguments: ["catalog", "folders"])
    func watchPrintsAnotherProcesssSavesAndDeletions(_ kind: String) throws {
        try CLI.withTemporaryDirectory { dir in
            let args =
                ["--library", dir.appendingPathComponent(kind == "catalog" ? "W.albumlibrary" : "Pictures").path]
                + (kind == "folders" ? ["--folders"] : [])
            let photo = CLI.examples.appendingPathComponent("harbour.jpg").path
            #expect(try CLI.run(args + ["create", "Before"]).status == 0)
            // Given `album watch --json` running
            let watch = try CLI.start(args + ["watch", "--json", "--interval", "0.1"])
            defer { if watch.isRunning { watch.terminate() } }
            let lines = Locked<[String]>([])
            let reader = Thread {
                let handle = (watch.standardOutput as! Pipe).fileHandleForReading
                var buffer = Data()
                while case let data = handle.availableData, !data.isEmpty {
                    buffer.append(data)
                    while let newline = buffer.firstIndex(of: 10) {
                        lines.withLock { $0.append(String(decoding: buffer[..<newline], as: UTF8.self)) }
                        buffer.removeSubrange(...newline)
                    }
                }
            }
            reader.start()
            func waitFor(_ found: @escaping ([[String: Any]]) -> Bool) -> Bool {
                for _ in 0..<100 {
                    let objects = lines.withLock { $0 }.compactMap {
                        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
                    }
                    if found(objects) { return true }
                    Thread.sleep(forTimeInterval: 0.1)
                }
                return false
            }
            Thread.sleep(forTimeInterval: 0.5)  // its first reading is done
            // When another process creates an album, saves a photo into it, then deletes the photo
            let created = try CLI.run(args + ["create", "--json", "Trips"]).json() as? [String: Any]
            let album = try #require(created?["id"] as? String)
            #expect(
                waitFor { objects in
                    objects.contains { ($0["insertedAlbums"] as? [String])?.contains(album) == true }
                },
                "\(lines.withLock { $0 })")
            let saved = try CLI.run(args + ["save", "--json", "--album", "Trips", photo]).jsonLines()
            let asset = try #require(saved.first?["asset"] as? String)
            // Then watch reports each, as it happens
            #expect(
                waitFor { objects in
                    objects.contains { ($0["insertedAssets"] as? [String])?.contains(asset) == true }
                },
                "\(lines.withLock { $0 })")
            #expect(try CLI.run(args + ["delete-asset", "--permanently", asset]).status == 0)
            #expect(
                waitFor { objects in
                    objects.contains { ($0["removedAssets"] as? [String])?.contains(asset) == true }
                },
                "\(lines.withLock { $0 })")
            watch.terminate()
            watch.waitUntilExit()
        }
    }

    @Test func accessIsAuthorizedForAlbumKitsOwnLibraries() throws {
        try CLI.withTemporaryDirectory { dir in
            let args = ["--library", dir.appendingPathComponent("A.albumlibrary").path]
            #expect(
                try CLI.run(args + ["save", CLI.examples.appendingPathComponent("harbour.jpg").path]).status == 0)
            let run = try CLI.run(args + ["access", "--json"])
            #expect(run.status == 0)
            let line = run.json() as? [String: String]
            #expect(line == ["addOnly": "authorized", "readWrite": "authorized"])
            #expect(try CLI.run(args + ["access"]).lines == ["add-only: authorized", "read-write: authorized"])
            #expect(try CLI.run(args + ["watch", "--interval", "0"]).status == 2)
        }
    }

    @Test func saveRecordsTheDateLocationAndFavouriteGiven() throws {
        try CLI.withTemporaryDirectory { dir in
            let photo = CLI.examples.appendingPathComponent("harbour.jpg").path
            let catalog = ["--library", dir.appendingPathComponent("D.albumlibrary").path]
            // A catalog records them with the asset
            let saved = try CLI.run(
                catalog + [
                    "save", "--album", "T", "--date", "2024-05-01T10:20:30+02:00", "--location", "64.1466,-21.9426",
                    "--favorite", photo,
                ])
            #expect(saved.status == 0, "\(saved.stderr)")
            let shown = (try CLI.run(catalog + ["show", "T", "--json"]).json() as? [[String: Any]])?.first
            #expect(shown?["latitude"] as? Double == 64.1466 && shown?["longitude"] as? Double == -21.9426)
            #expect(shown?["favorite"] as? Bool == true)
            #expect(
                (shown?["captureDate"] as? String).flatMap(ISO8601DateFormatter().date(from:))
                    == ISO8601DateFormatter().date(from: "2024-05-01T08:20:30Z"))
            // A folder library gives the file that time
            let folders = ["--library", dir.appendingPathComponent("Pictures").path, "--folders"]
            #expect(
                try CLI.run(folders + ["save", "--album", "T", "--date", "2020-01-02T03:04:05Z", photo]).status == 0)
            let modified =
                try FileManager.default.attributesOfItem(
                    atPath: dir.appendingPathComponent("Pictures/T/harbour.jpg").path)[.modificationDate] as? Date
            #expect(modified == ISO8601DateFormatter().date(from: "2020-01-02T03:04:05Z"))
            // A value that is not a date or a place is a usage error, before anything is saved
            for bad in [
                ["--date", "yesterday"], ["--date", "2024-02-30"], ["--location", "91,0"], ["--location", "1"],
            ] {
                let run = try CLI.run(catalog + ["save", "--album", "U"] + bad + [photo])
                #expect(run.status == 2, "\(bad): \(run.stderr)")
            }
            #expect((try CLI.run(catalog + ["albums", "--json"]).json() as? [Any])?.count == 1)
        }
    }
}
