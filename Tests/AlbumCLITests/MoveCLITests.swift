import AlbumKitConformance
import AlbumTestSupport
import Foundation
import Testing

/// `--move` ("delete after import"): a source is removed only once the library holds a copy read
/// back identical; damaged and skipped files stay; a source folder that cannot be written is
/// refused before anything is saved.
@Suite(.onThreadsOfTheirOwn) struct MoveCLITests {
    /// A card: three distinct photos, a copy of the first under another name, a damaged `.jpg` and
    /// a text file. Returns the card and the SHA-256 of each photo by name.
    static func card(in dir: URL) throws -> (URL, [String: String]) {
        let card = dir.appendingPathComponent("card")
        let folder = card.appendingPathComponent("DCIM/100CANON")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var hashes: [String: String] = [:]
        for i in 1...3 {
            let url = folder.appendingPathComponent("IMG_000\(i).JPG")
            try Fixture.uniqueJPEG("card\(i)").write(to: url)
            hashes[url.lastPathComponent] = CLI.sha256(url)
        }
        try Fixture.uniqueJPEG("card1").write(to: folder.appendingPathComponent("COPY_0001.JPG"))
        try Fixture.jpegBytes.prefix(300).write(to: folder.appendingPathComponent("BROKEN.JPG"))
        try Data("notes".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        return (card, hashes)
    }

    static func library(_ kind: String, in dir: URL) -> [String] {
        kind == "catalog"
            ? ["--library", dir.appendingPathComponent("L.albumlibrary").path]
            : ["--folders", "--library", dir.appendingPathComponent("Pictures").path]
    }

    @Test(arguments: ["catalog", "folders"])
    func movedFilesAreGoneAndIntactInTheLibrary(kind: String) throws {
        try CLI.withTemporaryDirectory { dir in
            let (card, hashes) = try Self.card(in: dir)
            let folder = card.appendingPathComponent("DCIM/100CANON")
            let library = Self.library(kind, in: dir)
            let dry = try CLI.run(["import", "--move", "--album", "Trip", card.path, "-n"] + library)
            #expect(dry.lines.filter { $0.hasPrefix("would move") }.count == 3, "\(dry.stdout)")
            #expect(
                dry.lines.filter { $0.hasPrefix("already in the library (would move): ") }.count == 1, "\(dry.stdout)")
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("IMG_0001.JPG").path))

            let run = try CLI.run(["import", "--move", "--album", "Trip", card.path] + library)
            #expect(run.status == 1, "the damaged file failed: \(run.stderr)")
            #expect(run.lines.filter { $0.hasPrefix("moved ") }.count == 3, "\(run.stdout)")
            // The copy of IMG_0001 under another name (the first seen of the two is stored).
            #expect(run.lines.filter { $0.hasPrefix("already in the library (moved): ") }.count == 1, "\(run.stdout)")
            #expect(!run.lines.contains { $0.hasPrefix("saved ") }, "\(run.stdout)")
            #expect(run.stderr.contains("4 moved"), "\(run.stderr)")
            // Gone from the card: the photos and the copy; the damaged file and the text file stay.
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            #expect(left == ["BROKEN.JPG", "notes.txt"], "\(left)")
            // In the library, byte for byte.
            let show = try CLI.run(["show", "Trip", "--json"] + library)
            let assets = (show.json() as? [[String: Any]]) ?? []
            var stored: [String: String] = [:]
            for asset in assets {
                if let path = asset["path"] as? String, let name = asset["file"] as? String {
                    stored[name] = CLI.sha256(URL(fileURLWithPath: path))
                }
            }
            #expect(Set(stored.values) == Set(hashes.values), "\(show.stdout)")
            #expect(stored.count == 3, "\(show.stdout)")
            // The JSON line says so.
            let again = try Self.card(in: dir.appendingPathComponent("again"))
            let json = try CLI.run(["import", "--move", "--json", "--album", "Trip", again.0.path] + library)
            let lines = json.lines.compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            #expect(lines.filter { $0["moved"] as? Bool == true }.count == 4, "\(json.stdout)")
        }
    }

    /// A read-only card (a read-only mount: as root, permissions alone would not stop a removal):
    /// refused, naming the folder, before anything is saved.
    @Test(.enabled(if: getuid() == 0, "a mount needs root (CI runs as root)"))
    func readOnlySourceIsRefusedBeforeAnythingIsSaved() throws {
        try CLI.withTemporaryDirectory { dir in
            let mount = dir.appendingPathComponent("media")
            try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
            try #require(Self.run("/bin/mount", "-t", "tmpfs", "-o", "size=16m", "albumkit-card", mount.path) == 0)
            defer { _ = Self.run("/bin/umount", mount.path) }
            let (card, _) = try Self.card(in: mount)
            try #require(Self.run("/bin/mount", "-o", "remount,ro", mount.path) == 0)
            let library = Self.library("catalog", in: dir)
            let run = try CLI.run(["import", "--move", "--album", "Trip", card.path] + library)
            #expect(run.status == 1, "\(run.stderr)")
            #expect(run.stderr.contains("Cannot move files out of \(card.path)/DCIM/100CANON"), "\(run.stderr)")
            #expect(run.stderr.contains("read-only file system"), "\(run.stderr)")
            #expect(run.stdout.isEmpty, "\(run.stdout)")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("L.albumlibrary").path))
            let folder = card.appendingPathComponent("DCIM/100CANON")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 6)
            // Without --move the same card is copied.
            let copy = try CLI.run(["import", "--album", "Trip", card.path] + library)
            #expect(copy.lines.filter { $0.hasPrefix("saved ") }.count == 3, "\(copy.stdout) \(copy.stderr)")
        }
    }

    static func run(_ arguments: String...) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        do { try process.run() } catch { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
