import AlbumKitConformance
import Foundation
import Testing

@testable import AlbumKitCore

#if canImport(Glibc)
    import Glibc
#endif

/// The one gate every removal, move and replacement of a library's file goes through: only
/// regular files beneath the library's folder, reached without following a link, are touched;
/// both ways of opening (`openat2`, and level by level where the kernel lacks it) alike.
@Suite struct RemovalGateTests {
    /// A library folder `lib` with `originals/ab/photo.jpg`, and an outside folder `victim` with
    /// `victim.txt`, in `dir`.
    func layout(_ dir: URL) -> (root: String, victim: String) {
        let fm = FileManager.default
        try! fm.createDirectory(at: dir.appendingPathComponent("lib/originals/ab"), withIntermediateDirectories: true)
        try! fm.createDirectory(at: dir.appendingPathComponent("victim"), withIntermediateDirectories: true)
        Fixture.write(Data("photo".utf8), named: "lib/originals/ab/photo.jpg", in: dir)
        Fixture.write(Data("private".utf8), named: "victim/victim.txt", in: dir)
        return (dir.appendingPathComponent("lib").path, dir.appendingPathComponent("victim/victim.txt").path)
    }

    @Test(arguments: [false, true])
    func removesARegularFileBeneathTheRoot(levelByLevel: Bool) async throws {
        try await Fixture.withTemporaryDirectory { (dir: URL) async throws in
            let (root, _) = layout(dir)
            let gate = RemovalGate(root: root, levelByLevel: levelByLevel)
            #expect(try gate.removeFile("originals/ab/photo.jpg"))
            #expect(!FileManager.default.fileExists(atPath: root + "/originals/ab/photo.jpg"))
            // Gone already, or its folder missing: nothing to remove, no failure.
            #expect(try !gate.removeFile("originals/ab/photo.jpg"))
            #expect(try !gate.removeFile("originals/cd/photo.jpg"))
        }
    }

    @Test(arguments: [false, true])
    func refusesPathsThatLeadOut(levelByLevel: Bool) async throws {
        try await Fixture.withTemporaryDirectory { (dir: URL) async throws in
            let (root, victim) = layout(dir)
            let gate = RemovalGate(root: root, levelByLevel: levelByLevel)
            for forged in [
                "../victim/victim.txt", "originals/../../victim/victim.txt", victim, "/" + victim, "originals//ab",
                "originals/./ab/photo.jpg", "originals/ab/photo.jpg\0x", "",
            ] {
                #expect(throws: SystemError.self, "\(forged)") { try gate.removeFile(forged) }
                #expect(throws: SystemError.self, "\(forged)") { try gate.moveFile(forged, to: "originals/ab/x") }
                #expect(throws: SystemError.self, "\(forged)") { try gate.openFileForReading(forged) }
            }
            #expect(throws: SystemError.self) { try gate.moveFile("originals/ab/photo.jpg", to: "../victim/new") }
            #expect(FileManager.default.fileExists(atPath: victim))
            #expect(FileManager.default.fileExists(atPath: root + "/originals/ab/photo.jpg"))
        }
    }

    @Test(arguments: [false, true])
    func neverFollowsALinkAtAnyLevel(levelByLevel: Bool) async throws {
        try await Fixture.withTemporaryDirectory { (dir: URL) async throws in
            let (root, victim) = layout(dir)
            let fm = FileManager.default
            let outside = dir.appendingPathComponent("victim").path
            // A shard folder that is a link out of the library, a file that is one, and
            // `originals/` itself as a link.
            try fm.createSymbolicLink(atPath: root + "/originals/cd", withDestinationPath: outside)
            try fm.createSymbolicLink(atPath: root + "/originals/ab/link.jpg", withDestinationPath: victim)
            try fm.createDirectory(atPath: root + "/other", withIntermediateDirectories: false)
            try fm.createSymbolicLink(atPath: root + "/other/originals", withDestinationPath: outside)
            let gate = RemovalGate(root: root, levelByLevel: levelByLevel)
            for path in ["originals/cd/victim.txt", "originals/ab/link.jpg", "other/originals/victim.txt"] {
                #expect(throws: SystemError.self, "\(path)") { try gate.removeFile(path) }
                #expect(throws: SystemError.self, "\(path)") { try gate.openFileForReading(path) }
                #expect(throws: SystemError.self, "\(path)") { try gate.moveFile(path, to: "originals/ab/moved") }
            }
            #expect(throws: SystemError.self) { try gate.moveFile("originals/ab/photo.jpg", to: "originals/cd/x.jpg") }
            #expect(throws: SystemError.self) { try gate.makeFolder("originals/cd/sub") }
            #expect(gate.status(of: "originals/cd/victim.txt") == nil)
            #expect(fm.fileExists(atPath: victim))
            #expect(try String(contentsOfFile: victim, encoding: .utf8) == "private")
            // The link itself is a file of the library: it stays too (verify reports it).
            #expect((try? fm.destinationOfSymbolicLink(atPath: root + "/originals/ab/link.jpg")) == victim)
        }
    }

    @Test(arguments: [false, true])
    func leavesFoldersFIFOsAndDevicesAlone(levelByLevel: Bool) async throws {
        try await Fixture.withTemporaryDirectory { (dir: URL) async throws in
            let (root, _) = layout(dir)
            try FileManager.default.createDirectory(
                atPath: root + "/originals/ab/folder.jpg", withIntermediateDirectories: false)
            #expect(mkfifo(root + "/originals/ab/fifo.jpg", 0o644) == 0)
            let gate = RemovalGate(root: root, levelByLevel: levelByLevel)
            #expect(throws: SystemError.self) { try gate.removeFile("originals/ab/folder.jpg") }
            let fifo = #expect(throws: SystemError.self) { try gate.removeFile("originals/ab/fifo.jpg") }
            #expect(fifo?.errno == EINVAL)
            // Opening a FIFO for reading never waits for a writer: refused by its kind.
            #expect(throws: SystemError.self) { try gate.openFileForReading("originals/ab/fifo.jpg") }
            #expect(FileManager.default.fileExists(atPath: root + "/originals/ab/fifo.jpg"))
            #expect(FileManager.default.fileExists(atPath: root + "/originals/ab/folder.jpg"))
        }
    }

    @Test(arguments: [false, true])
    func movesWithoutReplacingAndMakesTheTargetFolders(levelByLevel: Bool) async throws {
        try await Fixture.withTemporaryDirectory { (dir: URL) async throws in
            let (root, _) = layout(dir)
            let gate = RemovalGate(root: root, levelByLevel: levelByLevel)
            Fixture.write(Data("other".utf8), named: "lib/originals/ab/other.jpg", in: dir)
            let taken = #expect(throws: SystemError.self) {
                try gate.moveFile("originals/ab/photo.jpg", to: "originals/ab/other.jpg")
            }
            #expect(taken?.errno == EEXIST)
            try gate.moveFile("originals/ab/photo.jpg", to: "damaged/originals/photo.jpg")
            #expect(try String(contentsOfFile: root + "/damaged/originals/photo.jpg", encoding: .utf8) == "photo")
            let (file, size) = try gate.openFileForReading("damaged/originals/photo.jpg")
            FileSystem.close(file)
            #expect(size == 5)
            let (folder, created) = try gate.makeFolder("originals/ef")
            FileSystem.close(folder)
            #expect(created)
            #expect(try !gate.makeFolder("originals/ef").created)
        }
    }

    @Test func namesInAnOpenedFolderAreSingleNames() async throws {
        try await Fixture.withTemporaryDirectory { (dir: URL) async throws in
            let (root, victim) = layout(dir)
            let folder = try RemovalGate(root: root).openFolder("originals/ab")
            defer { FileSystem.close(folder) }
            #expect(throws: SystemError.self) {
                try RemovalGate.removeFile(named: "../../../victim/victim.txt", in: folder)
            }
            #expect(throws: SystemError.self) { try RemovalGate.removeFile(named: "..", in: folder) }
            #expect(try RemovalGate.removeFile(named: "photo.jpg", in: folder))
            #expect(FileManager.default.fileExists(atPath: victim))
        }
    }
}
