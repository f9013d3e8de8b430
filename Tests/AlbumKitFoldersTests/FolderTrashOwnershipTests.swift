import AlbumKitConformance
import Foundation
import Testing

@testable import AlbumKitCore
@testable import AlbumKitFolders

#if canImport(Glibc)
    import Glibc
#endif

/// A trash folder at the top of a disk is used only when it is this user's, as GLib checks it: a
/// real folder they own; stricter than GLib, one that gives no one else access. Else
/// `$topdir/.Trash/$UID` gives way to `$topdir/.Trash-$UID`, and when that is not theirs either the
/// deletion fails naming it (nothing moved).
@Suite struct FolderTrashOwnershipTests {
    /// A trash without a home trash on the folder's disk, for a folder whose disk's top is `top`
    /// (a device no folder above it has, so `top` is where the walk up stops).
    static func trashFolder(at top: URL) throws(SystemError) -> String {
        let trash = FolderTrash(homeTrash: "/proc/no-home-trash")
        let device = FileSystem.fileStatus(atPath: top.path)!.device
        return try trash.trashDirectory(forDevice: device &+ 1_000_003, absolutePath: top.path).0
    }

    @Test func aNewTrashIsMadePrivate() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let folder = try Self.trashFolder(at: dir)
            #expect(folder == dir.path + "/.Trash-\(getuid())")
            let info = try #require(FileSystem.fileStatus(atPath: folder, following: false))
            #expect(info.kind == .directory && info.permissions & 0o777 == 0o700)
        }
    }

    @Test(arguments: ["link", "open"])
    func aTrashThatIsNotPrivateIsNotUsed(kind: String) async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let own = dir.appendingPathComponent(".Trash-\(getuid())")
            if kind == "link" {
                let elsewhere = dir.appendingPathComponent("elsewhere")
                try FileManager.default.createDirectory(
                    at: elsewhere, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
                try FileManager.default.createSymbolicLink(at: own, withDestinationURL: elsewhere)
            } else {
                try FileManager.default.createDirectory(at: own, withIntermediateDirectories: false)
                #expect(chmod(own.path, 0o777) == 0)
            }
            #expect(throws: SystemError.self) { _ = try Self.trashFolder(at: dir) }
        }
    }

    @Test(.enabled(if: getuid() == 0, "giving a folder to another user needs root (CI runs as root)"))
    func aTrashOwnedByAnotherUserIsNotUsed() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            // Not the caller's: $topdir/.Trash/$UID gives way to .Trash-$UID, as in GLib.
            let shared = dir.appendingPathComponent(".Trash")
            try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: false)
            #expect(chmod(shared.path, 0o1777) == 0)
            let theirs = shared.appendingPathComponent("\(getuid())")
            try FileManager.default.createDirectory(
                at: theirs, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            #expect(chown(theirs.path, 65534, 65534) == 0)
            #expect(try Self.trashFolder(at: dir) == dir.path + "/.Trash-\(getuid())")
            // And a .Trash-$UID of another user: refused.
            let own = dir.appendingPathComponent(".Trash-\(getuid())")
            try FileManager.default.removeItem(at: own)
            try FileManager.default.createDirectory(
                at: own, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            #expect(chown(own.path, 65534, 65534) == 0)
            #expect(throws: SystemError.self) { _ = try Self.trashFolder(at: dir) }
        }
    }
}
