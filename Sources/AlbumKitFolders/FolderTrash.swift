import AlbumKitCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The desktop Trash, as the freedesktop.org Trash specification (1.0) defines it, so a deleted album
/// can be restored from any file manager (GNOME Files, Dolphin, Thunar, `gio trash --restore`).
///
/// - A folder on the home file system goes to `$XDG_DATA_HOME/Trash` (default
///   `~/.local/share/Trash`): `files/NAME` holds it, `info/NAME.trashinfo` says where it came from
///   (`Path=`, percent-encoded, absolute) and when (`DeletionDate=`, local time).
/// - A folder on another file system goes to the trash at the top of that file system:
///   `$topdir/.Trash/$UID` when an administrator made `$topdir/.Trash` (a sticky, real folder),
///   else `$topdir/.Trash-$UID`; there `Path=` is relative to `$topdir`.
///
/// Moving is a rename on one file system, so nothing is copied and nothing can be half-moved. The
/// `.trashinfo` file is created first (its exclusive creation reserves `NAME`), as the spec asks.
///
/// ```swift
/// let trash = FolderTrash(environment: ["HOME": "/home/me"])
/// let place = try trash.move("Trips", in: parent, from: "/home/me/Pictures/Trips")
/// ```
package struct FolderTrash: Sendable {
    /// The home trash (`$XDG_DATA_HOME/Trash`).
    package let homeTrash: String
    let userID: UInt32

    package init(environment: [String: String] = LibraryConfiguration.current.environment) {
        let directories = XDGUserDirectories(environment: environment)
        let dataHome =
            environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? directories.homeDirectory + "/.local/share"
        homeTrash = dataHome + "/Trash"
        userID = getuid()
    }

    /// A trash whose home trash is `homeTrash` (tests keep deletions out of the user's Trash).
    package init(homeTrash: String) {
        self.homeTrash = homeTrash
        userID = getuid()
    }

    /// Moves `name` in `parent` (whose absolute path is `absolutePath`) into the trash of its file
    /// system. Returns the path it now has (`…/Trash/files/NAME`). With `keepingName`, the file is
    /// linked into the trash and keeps its name too (the caller then replaces that name atomically,
    /// so it always holds the earlier file or the new one).
    ///
    /// - Throws: the failing call; `EXDEV` when no trash can be made on the folder's file system
    ///   (nothing was moved then).
    package func move(
        _ name: String, in parent: FileSystem.Descriptor, from absolutePath: String, displayName: String? = nil,
        keepingName: Bool = false
    ) throws(SystemError) -> String {
        let device = try FileSystem.fileStatus(of: parent).device
        // The real path (a library reached through a symlink, `~/Pictures` → `/data/Pictures`, has
        // its top directory where the real folder is).
        let parentPath = (absolutePath as NSString).deletingLastPathComponent
        let realPath =
            URL(fileURLWithPath: parentPath).resolvingSymlinksInPath().path + "/"
            + (absolutePath as NSString).lastPathComponent
        let (trash, pathInInfo) = try trashDirectory(forDevice: device, absolutePath: realPath)
        let trashRoot = try FileSystem.openDirectory(atPathFollowing: trash)
        try FileSystem.makeDirectory("files", in: trashRoot, mode: 0o700)
        try FileSystem.makeDirectory("info", in: trashRoot, mode: 0o700)
        let files = try FileSystem.openDirectory("files", in: trashRoot)
        let info = try FileSystem.openDirectory("info", in: trashRoot)
        guard try FileSystem.fileStatus(of: files).device == device else {
            throw SystemError("trash", path: trash, errno: EXDEV)
        }
        let base = displayName ?? name
        let record = Array(Self.trashInfo(path: pathInInfo, date: Date()).utf8)
        for attempt in 1...10_000 {
            let entry = attempt == 1 ? base : "\(base).\(attempt)"
            do {
                try FileSystem.createFile(entry + ".trashinfo", in: info, bytes: record)
            } catch  where error.errno == EEXIST {
                continue
            }
            var failure: SystemError?
            if keepingName {
                do throws(SystemError) { try FileSystem.link(name, in: parent, as: entry, in: files) } catch {
                    failure = error
                }
            } else {
                failure = FileSystem.tryRename(name, in: parent, to: entry, in: files)
            }
            if let failure {
                // Cleanup of the .trashinfo this call just wrote for an entry it could not use.
                try? FileSystem.unlink(entry + ".trashinfo", in: info)
                if failure.errno == EEXIST || failure.errno == ENOTEMPTY { continue }
                throw failure
            }
            try FileSystem.fsync(files)
            try FileSystem.fsync(info)
            try FileSystem.fsync(parent)
            return trash + "/files/" + entry
        }
        throw SystemError("trash", path: trash, errno: EEXIST)
    }

    /// The trash for a folder on `device`, and the `Path=` value for `absolutePath`.
    ///
    /// A trash folder is used only when it is ours, as GLib (`g_file_trash`) checks it: a real
    /// folder (not a symbolic link) owned by this user; and, stricter than GLib, one that gives no
    /// one else any access (a `.Trash-$UID` another user made, or opened to others, could show or
    /// take what is deleted). `$topdir/.Trash/$UID` failing that, `$topdir/.Trash-$UID` is tried, as
    /// GLib does; when neither is ours, nothing is moved and the error names the folder.
    func trashDirectory(forDevice device: UInt64, absolutePath: String) throws(SystemError) -> (String, String) {
        // A home Trash that cannot be made (read-only home, no XDG data folder) is not an error here:
        // the status check below then fails and the trash at the top of the folder's disk is used.
        _ = try? FileSystem.makeDirectory(atPath: homeTrash, mode: 0o700)
        if let home = FileSystem.fileStatus(atPath: homeTrash), home.device == device {
            // The home trash may be a link the user made; it must lead to a folder of theirs.
            guard home.kind == .directory, home.owner == userID else {
                throw SystemError("trash", path: homeTrash, errno: EACCES)
            }
            return (homeTrash, Self.percentEncoded(absolutePath))
        }
        let top = Self.topDirectory(of: absolutePath, device: device)
        let relative = String(absolutePath.dropFirst(top == "/" ? 1 : top.count + 1))
        let shared = (top == "/" ? "" : top) + "/.Trash"
        if let info = FileSystem.fileStatus(atPath: shared, following: false), info.kind == .directory, info.isSticky {
            let mine = shared + "/\(userID)"
            // Cannot make our folder in the shared Trash: the next kind of Trash is tried.
            _ = try? FileSystem.makeDirectory(atPath: mine, mode: 0o700)
            if isOurs(mine) { return (mine, Self.percentEncoded(relative)) }
        }
        let own = (top == "/" ? "" : top) + "/.Trash-\(userID)"
        try FileSystem.makeDirectory(atPath: own, mode: 0o700)
        guard isOurs(own) else { throw SystemError("trash", path: own, errno: EACCES) }
        return (own, Self.percentEncoded(relative))
    }

    /// Whether the folder at `path` is a real folder (not a symbolic link) owned by this user that
    /// gives no one else any access.
    private func isOurs(_ path: String) -> Bool {
        guard let info = FileSystem.fileStatus(atPath: path, following: false), info.kind == .directory else {
            return false
        }
        return info.owner == userID && info.permissions & 0o077 == 0
    }

    /// The mount point holding `path`: its highest ancestor on the same device.
    static func topDirectory(of path: String, device: UInt64) -> String {
        var top = path
        var candidate = (path as NSString).deletingLastPathComponent
        while true {
            guard FileSystem.fileStatus(atPath: candidate)?.device == device else { return top }
            top = candidate
            if candidate == "/" { return top }
            candidate = (candidate as NSString).deletingLastPathComponent
        }
    }

    /// The `.trashinfo` text for `path` deleted at `date`.
    static func trashInfo(path: String, date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return "[Trash Info]\nPath=\(path)\nDeletionDate=\(formatter.string(from: date))\n"
    }

    /// `path` with every byte outside RFC 2396's unreserved characters and `/` written as `%XX`.
    static func percentEncoded(_ path: String) -> String {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()/".utf8)
        var result = ""
        for byte in path.utf8 {
            if unreserved.contains(byte) {
                result.append(Character(Unicode.Scalar(byte)))
            } else {
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }
}
