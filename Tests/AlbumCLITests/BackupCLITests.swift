import AlbumKitConformance
import AlbumTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `import --backup DIR`: a second copy of each imported file, in the card's folders below DIR,
/// never over another file; a backup that cannot be made is named and counted while the import
/// itself goes through.
@Suite(.onThreadsOfTheirOwn) struct BackupCLITests {
    /// A card with DCIM/100CANON/A.JPG (with its sidecar A.xmp) and B.JPG.
    static func card(in dir: URL) throws -> (card: URL, folder: URL) {
        let card = dir.appendingPathComponent("card")
        let folder = card.appendingPathComponent("DCIM/100CANON")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Fixture.uniqueJPEG("backup A").write(to: folder.appendingPathComponent("A.JPG"))
        try Data("<x:xmpmeta xmlns:x='adobe:ns:meta/'/>".utf8).write(to: folder.appendingPathComponent("A.xmp"))
        try Fixture.uniqueJPEG("backup B").write(to: folder.appendingPathComponent("B.JPG"))
        return (card, folder)
    }

    static func mount(_ arguments: String...) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        do { try process.run() } catch { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test func secondCopiesKeepTheCardsFoldersAndNeverReplaceAnotherFile() throws {
        try CLI.withTemporaryDirectory { dir in
            let (card, folder) = try Self.card(in: dir)
            let backup = dir.appendingPathComponent("backup")
            let backupFolder = backup.appendingPathComponent("DCIM/100CANON")
            try FileManager.default.createDirectory(at: backupFolder, withIntermediateDirectories: true)
            // Another file already named B.JPG there: kept as it is.
            let other = Data("not this card's B".utf8)
            try other.write(to: backupFolder.appendingPathComponent("B.JPG"))
            let library = ["--library", dir.appendingPathComponent("L.albumlibrary").path]
            let run = try CLI.run(library + ["import", "--album", "Trip", "--backup", backup.path, card.path])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains("3 second copies made in \(backup.path)"), "\(run.stderr)")
            for name in ["A.JPG", "A.xmp"] {
                #expect(
                    CLI.sha256(backupFolder.appendingPathComponent(name))
                        == CLI.sha256(folder.appendingPathComponent(name)))
            }
            #expect(try Data(contentsOf: backupFolder.appendingPathComponent("B.JPG")) == other)
            #expect(
                CLI.sha256(backupFolder.appendingPathComponent("B-1.JPG"))
                    == CLI.sha256(folder.appendingPathComponent("B.JPG")))
            // Again: the copies are found there, nothing is written twice.
            let again = try CLI.run(library + ["import", "--album", "Trip", "--backup", backup.path, card.path])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(
                again.stderr.contains("0 second copies made in \(backup.path) (3 there already)"), "\(again.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: backupFolder.path).count == 4)
        }
    }

    /// A read-only backup disk and a full one: every photo is imported, every missing copy named.
    @Test(
        .enabled(if: getuid() == 0, "a mount needs root (CI runs as root)"), arguments: ["read-only", "full"])
    func aBackupThatCannotBeWrittenIsNamedAndTheImportStands(_ trouble: String) throws {
        try CLI.withTemporaryDirectory { dir in
            let (card, _) = try Self.card(in: dir)
            let backup = dir.appendingPathComponent("backup")
            try FileManager.default.createDirectory(at: backup, withIntermediateDirectories: true)
            try #require(Self.mount("/bin/mount", "-t", "tmpfs", "-o", "size=64k", "albumkit-backup", backup.path) == 0)
            defer { _ = Self.mount("/bin/umount", backup.path) }
            if trouble == "read-only" {
                try #require(Self.mount("/bin/mount", "-o", "remount,ro", backup.path) == 0)
            } else {
                // Filled up to the last byte, the folders made: only the files find no room.
                try FileManager.default.createDirectory(
                    at: backup.appendingPathComponent("DCIM/100CANON"), withIntermediateDirectories: true)
                #expect(FileManager.default.createFile(atPath: backup.path + "/filler", contents: nil))
                let filler = try #require(FileHandle(forWritingAtPath: backup.path + "/filler"))
                let block = Data(repeating: 0, count: 4096)
                while (try? filler.write(contentsOf: block)) != nil {}  // Until ENOSPC: the disk is full.
                try? filler.close()  // Closing a full file's handle may report the same ENOSPC.
            }
            let library = ["--library", dir.appendingPathComponent("L.albumlibrary").path]
            let run = try CLI.run(library + ["import", "--album", "Trip", "--backup", backup.path, card.path])
            #expect(run.status == 1, "\(run.stderr)")
            #expect(run.lines.filter { $0.hasPrefix("saved ") }.count == 2, "\(run.stdout)")
            let cause = trouble == "read-only" ? "read-only file system" : "no space left on device"
            for name in ["A.JPG", "A.xmp", "B.JPG"] {
                #expect(
                    run.stderr.contains("No second copy of \(card.path)/DCIM/100CANON/\(name) in \(backup.path)"),
                    "\(run.stderr)")
            }
            #expect(run.stderr.contains(cause), "\(run.stderr)")
            #expect(run.stderr.contains("2 saved"), "\(run.stderr)")
            #expect(run.stderr.contains("3 without a second copy"), "\(run.stderr)")
            let shown = try CLI.run(library + ["show", "--json", "Trip"])
            #expect(((shown.json() as? [[String: Any]]) ?? []).count == 2)
            #expect(!FileManager.default.fileExists(atPath: backup.path + "/DCIM/100CANON/A.JPG"))
        }
    }

    /// With --move, a file whose second copy could not be made stays on the card; the others,
    /// copied, are moved.
    @Test func moveKeepsAFileWhoseSecondCopyFailed() throws {
        try CLI.withTemporaryDirectory { dir in
            let (card, folder) = try Self.card(in: dir)
            let backup = dir.appendingPathComponent("backup")
            // B.JPG's place in the backup is taken by a folder: no copy can be named there.
            try FileManager.default.createDirectory(
                at: backup.appendingPathComponent("DCIM/100CANON/B.JPG"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(
                at: backup.appendingPathComponent("DCIM/100CANON/B-1.JPG"), withIntermediateDirectories: true)
            for n in 2...999 {
                try Data().write(to: backup.appendingPathComponent("DCIM/100CANON/B-\(n).JPG"))
            }
            let library = ["--library", dir.appendingPathComponent("L.albumlibrary").path]
            let run = try CLI.run(
                library + ["import", "--move", "--album", "Trip", "--backup", backup.path, card.path])
            #expect(run.status == 1, "\(run.stderr)")
            #expect(run.stderr.contains("No second copy of \(folder.path)/B.JPG"), "\(run.stderr)")
            #expect(
                run.stderr.contains("B.JPG was saved but not removed: its second copy could not be made"),
                "\(run.stderr)")
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("B.JPG").path))
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("A.JPG").path))
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("A.xmp").path))
            #expect(FileManager.default.fileExists(atPath: backup.appendingPathComponent("DCIM/100CANON/A.JPG").path))
        }
    }

    /// A watched folder's files keep their place below it in the backup.
    @Test func aWatchedFolderIsBackedUpInItsFolders() throws {
        try CLI.withTemporaryDirectory { dir in
            let inbox = dir.appendingPathComponent("inbox")
            let sub = inbox.appendingPathComponent("2024/May")
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            let backup = dir.appendingPathComponent("backup")
            let library = ["--library", dir.appendingPathComponent("L.albumlibrary").path]
            try Fixture.uniqueJPEG("watched backup").write(to: sub.appendingPathComponent("W.JPG"))
            // A backup folder that does not exist is not made (a disk not mounted): named, no copy.
            let missing = try CLI.run(library + ["import", "--backup", backup.path, inbox.path])
            #expect(missing.status == 1)
            #expect(missing.stderr.contains("the folder \(backup.path) does not exist"), "\(missing.stderr)")
            #expect(!FileManager.default.fileExists(atPath: backup.path))
            try FileManager.default.createDirectory(at: backup, withIntermediateDirectories: true)
            let watcher = try WatchedImportCLITests.Watcher(
                library + ["import", "--watch", inbox.path, "--backup", backup.path, "--settle", "0.3"])
            defer { watcher.kill() }
            // Already in the library (the import above), and copied now the folder is there.
            let copy = backup.appendingPathComponent("2024/May/W.JPG")
            #expect(watcher.wait { _ in FileManager.default.fileExists(atPath: copy.path) }, "\(watcher.stderr)")
            #expect(CLI.sha256(copy) == CLI.sha256(sub.appendingPathComponent("W.JPG")))
        }
    }
}
