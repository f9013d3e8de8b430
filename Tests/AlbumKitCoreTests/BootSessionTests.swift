import AlbumKitConformance
import AlbumTestSupport
import Foundation
import Testing

@testable import AlbumKitCore

/// The session an index records (boot and mount): the same for every file of one mount, and, where
/// the kernel names mounts uniquely, naming the mount itself, so a disk mounted again is another
/// session even when its mount id and device number come back the same (the `remount` scenario
/// mounts a disk again for real).
@Suite struct BootSessionTests {
    @Test func filesOfOneMountShareASessionThatNamesTheMount() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let existing = dir.appendingPathComponent("catalog.sqlite")
            try Data("x".utf8).write(to: existing)
            let session = BootSession.session(forFileAt: existing.path)
            #expect(session.hasPrefix(BootSession.id))
            // A file not made yet is on its folder's mount: the same session.
            #expect(BootSession.session(forFileAt: dir.appendingPathComponent("new.sqlite").path) == session)
            #if os(Linux)
                if let mount = try FileSystem.uniqueMountID(atPath: dir.path) {
                    #expect(session.hasSuffix("/m\(mount)"))
                } else {
                    // A kernel before 6.8 names no mount uniquely: the mount ids alone, as before.
                    #expect(!session.contains("/m"))
                }
            #endif
        }
    }

    /// A folder of the same disk bound somewhere else (as a test, a container or `systemd-mount`
    /// does at any time) is not a new mount of the library's file system: the session of a file
    /// asked before the bind mount and of one asked during it are the same. It listed every mount of
    /// the device, so the catalog index of a library written during a bind mount elsewhere looked
    /// torn to the next opening and was rebuilt in silence (CI caught it: a copied index was then
    /// rebuilt without saying it belonged to another copy of the library).
    @Test(.enabled(if: getuid() == 0, "a bind mount needs root (CI runs as root)"))
    func aFolderBoundElsewhereOnTheDiskLeavesTheSessionAsItWas() async throws {
        #if os(Linux)
            guard try FileSystem.uniqueMountID(atPath: NSTemporaryDirectory()) != nil else { return }
            try await Fixture.withTemporaryDirectory { dir in
                let source = dir.appendingPathComponent("source")
                let bound = dir.appendingPathComponent("bound")
                for folder in [source, bound] {
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                }
                let before = BootSession.session(forFileAt: dir.appendingPathComponent("before.sqlite").path)
                #expect(ProgramRun.status(["/bin/mount", "--bind", source.path, bound.path]) == 0)
                defer { _ = ProgramRun.status(["/bin/umount", bound.path]) }
                let during = BootSession.session(forFileAt: dir.appendingPathComponent("during.sqlite").path)
                #expect(during == before)
                // The bound folder itself is another mount: its files are another session.
                #expect(BootSession.session(forFileAt: bound.appendingPathComponent("x").path) != before)
            }
        #endif
    }

    /// The mount table is read as long as it is, a chunk at a time (it was a 4 MiB buffer,
    /// zero-filled for every command, to read 1.5 KB): a file of any length comes back whole.
    @Test func aFileOfUnknownLengthIsReadWholeInChunks() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            for length in [0, 1, 4095, 4096, 4097, 40_000] {
                let url = dir.appendingPathComponent("file-\(length)")
                let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 31) }
                try Data(bytes).write(to: url)
                let (file, _) = try FileSystem.openForReading(url.path)
                defer { FileSystem.close(file) }
                #expect(try FileSystem.readToEnd(file, chunk: 4096) == bytes, "\(length) bytes")
            }
            #if os(Linux)
                let (file, size) = try FileSystem.openForReading("/proc/self/mountinfo")
                defer { FileSystem.close(file) }
                #expect(size == 0)  // what /proc says of its files: their length is not known ahead
                let table = String(decoding: try FileSystem.readToEnd(file, chunk: 64), as: UTF8.self)
                #expect(table.hasSuffix("\n") && table.split(separator: "\n").allSatisfy { $0.contains(" - ") })
            #endif
        }
    }
}
