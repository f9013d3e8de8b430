import AlbumKitConformance
import AlbumTestSupport
import Foundation
import Testing

/// `--move` never removes the only copy (``SourceRemoval``): not the library's own file, nothing
/// inside the library or a catalog library, not a file that changed after it was read, and never a
/// file whose bytes were not saved.
@Suite(.onThreadsOfTheirOwn) struct MoveSafetyCLITests {
    static func photo(_ tag: String) throws -> Data {
        Fixture.uniqueJPEG(tag)
    }

    /// The SHA-256 of every regular file under `folder` (hidden ones too).
    static func hashes(under folder: URL) -> [String] {
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        var found: [String] = []
        while let url = files?.nextObject() as? URL {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                found.append(CLI.sha256(url))
            }
        }
        return found
    }

    /// "Sort my Pictures by date": the photos already in their folder stay (they are the library's
    /// own files), and every photo is still somewhere in Pictures after two runs.
    @Test func foldersLibrarySortedByDateOverItselfLosesNothing() throws {
        try CLI.withTemporaryDirectory { dir in
            let pictures = dir.appendingPathComponent("Pictures")
            let loose = pictures.appendingPathComponent("loose")
            try FileManager.default.createDirectory(at: loose, withIntermediateDirectories: true)
            var expected: Set<String> = []
            for i in 1...3 {
                let url = loose.appendingPathComponent("IMG_\(i).JPG")
                try Self.photo("sort\(i)").write(to: url)
                expected.insert(CLI.sha256(url))
            }
            let library = ["--folders", "--library", pictures.path]
            for run in 1...2 {
                let sorted = try CLI.run(["import", "--move", "--album-by-date", "%Y/%m", pictures.path] + library)
                let held = Set(Self.hashes(under: pictures))
                #expect(expected.isSubset(of: held), "run \(run): \(sorted.stdout)\n\(sorted.stderr)")
                #expect(!sorted.stdout.contains("(moved)"), "run \(run): \(sorted.stdout)")
            }
            // The second run found each photo in its date folder: the library's own file, left there.
            let again = try CLI.run(["import", "--move", "--album-by-date", "%Y/%m", pictures.path] + library)
            #expect(again.stdout.contains("the library's own file: left where it is"), "\(again.stdout)")
        }
    }

    /// `import --move --album Trips P/Trips` and `save --move` of an album's own file: kept.
    @Test func anAlbumsOwnFileIsNeverRemoved() throws {
        try CLI.withTemporaryDirectory { dir in
            let pictures = dir.appendingPathComponent("Pictures")
            let library = ["--folders", "--library", pictures.path]
            let source = dir.appendingPathComponent("IMG_1.JPG")
            try Self.photo("own").write(to: source)
            let hash = CLI.sha256(source)
            #expect(try CLI.run(["save", "--album", "Trips", source.path] + library).status == 0)
            let stored = pictures.appendingPathComponent("Trips/IMG_1.JPG")
            let imported = try CLI.run(
                ["import", "--move", "--album", "Trips", stored.deletingLastPathComponent().path] + library)
            #expect(CLI.sha256(stored) == hash, "\(imported.stdout)\n\(imported.stderr)")
            let saved = try CLI.run(["save", "--move", "--album", "Trips", stored.path] + library)
            #expect(CLI.sha256(stored) == hash, "\(saved.stdout)\n\(saved.stderr)")
            #expect(saved.stdout.contains("left where it is"), "\(saved.stdout)")
            // Into another album of the same library: copied, and the source (inside the library) stays.
            let other = try CLI.run(["save", "--move", "--album", "Other", stored.path] + library)
            #expect(CLI.sha256(stored) == hash, "\(other.stdout)\n\(other.stderr)")
            #expect(
                other.stdout.contains("left where it is") || other.stderr.contains("inside the library"),
                "\(other.stdout)\n\(other.stderr)")
        }
    }

    /// A catalog: `import --move` of its own `originals/` removes nothing.
    @Test func aCatalogsOwnOriginalsAreNeverRemoved() throws {
        try CLI.withTemporaryDirectory { dir in
            let catalog = dir.appendingPathComponent("L.albumlibrary")
            let source = dir.appendingPathComponent("IMG_1.JPG")
            try Self.photo("catalog-own").write(to: source)
            let hash = CLI.sha256(source)
            #expect(try CLI.run(["save", "--library", catalog.path, source.path]).status == 0)
            let run = try CLI.run([
                "import", "--move", "--library", catalog.path, catalog.appendingPathComponent("originals").path,
            ])
            #expect(Self.hashes(under: catalog.appendingPathComponent("originals")).contains(hash), "\(run.stderr)")
            let verify = try CLI.run(["verify", "--library", catalog.path])
            #expect(verify.status == 0, "\(verify.stdout)\n\(verify.stderr)")
        }
    }

    /// A card holding a catalog library: the walk leaves it out (said so), its original stays, and
    /// naming its `originals/` outright removes nothing either.
    @Test func aCatalogInsideTheImportedTreeIsLeftOut() throws {
        try CLI.withTemporaryDirectory { dir in
            let card = dir.appendingPathComponent("card")
            let inner = card.appendingPathComponent("Photos.albumlibrary")
            try FileManager.default.createDirectory(at: card, withIntermediateDirectories: true)
            let source = dir.appendingPathComponent("IMG_1.JPG")
            try Self.photo("inner").write(to: source)
            let hash = CLI.sha256(source)
            #expect(try CLI.run(["save", "--library", inner.path, "--move", source.path]).status == 0)
            let other = ["--library", dir.appendingPathComponent("Other.albumlibrary").path]
            let run = try CLI.run(["import", "--move", card.path] + other)
            #expect(run.stderr.contains("left out"), "\(run.stderr)")
            #expect(Self.hashes(under: inner.appendingPathComponent("originals")).contains(hash))
            let named = try CLI.run(["import", "--move", inner.appendingPathComponent("originals").path] + other)
            #expect(Self.hashes(under: inner.appendingPathComponent("originals")).contains(hash), "\(named.stderr)")
            #expect(named.stderr.contains("catalog library"), "\(named.stderr)")
            #expect(try CLI.run(["verify", "--library", inner.path]).status == 0)
        }
    }

    /// A file with the name, size and time of one already saved but other bytes: the quick check
    /// takes it for that one; `--move` says it was not saved, and keeps it.
    @Test func aLookalikeIsNeitherClaimedSavedNorRemoved() throws {
        try CLI.withTemporaryDirectory { dir in
            let library = ["--library", dir.appendingPathComponent("L.albumlibrary").path]
            let first = dir.appendingPathComponent("a/IMG_1.JPG")
            let second = dir.appendingPathComponent("b/IMG_1.JPG")
            for url in [first, second] {
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            }
            try Self.photo("look-1").write(to: first)
            try Self.photo("look-2").write(to: second)
            let time = Date(timeIntervalSince1970: 1_600_000_000)
            for url in [first, second] {
                try FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: url.path)
            }
            #expect(try CLI.run(["save", first.path] + library).status == 0)
            let run = try CLI.run(["save", "--move", second.path] + library)
            #expect(run.status == 1)
            #expect(FileManager.default.fileExists(atPath: second.path))
            #expect(run.stderr.contains("was not saved"), "\(run.stderr)")
            #expect(!run.stderr.contains("saved but not removed"), "\(run.stderr)")
            #expect(!run.stdout.contains("already in the library"), "\(run.stdout)")
        }
    }

    /// A file changed after its last read and before its removal (paused there): kept, and said so.
    @Test func aSourceChangedWhileCheckedIsKept() throws {
        try CLI.withTemporaryDirectory { dir in
            let library = ["--library", dir.appendingPathComponent("L.albumlibrary").path]
            let source = dir.appendingPathComponent("IMG_1.JPG")
            try Self.photo("changing").write(to: source)
            let marker = dir.appendingPathComponent("pause").path
            let process = try CLI.start(
                ["save", "--move", source.path] + library,
                environment: ["ALBUMKIT_PAUSE": "source-hashed", "ALBUMKIT_PAUSE_MARKER": marker])
            let deadline = Date().addingTimeInterval(60)
            while !FileManager.default.fileExists(atPath: marker), Date() < deadline { usleep(20_000) }
            #expect(FileManager.default.fileExists(atPath: marker))
            let handle = try FileHandle(forWritingTo: source)
            try handle.seekToEnd()
            handle.write(Data("new bytes".utf8))
            try handle.close()
            try FileManager.default.removeItem(atPath: marker)
            let err = (process.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let stderr = String(decoding: err, as: UTF8.self)
            #expect(FileManager.default.fileExists(atPath: source.path), "\(stderr)")
            #expect(stderr.contains("changed while it was being checked"), "\(stderr)")
            #expect(process.terminationStatus == 1)
        }
    }
}
