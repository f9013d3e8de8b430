#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Who may read what AlbumKit writes. Private by default: folders `0700`, files `0600` (the
/// process's umask may narrow them further). A library shared with a group on purpose says so by
/// its own folder's mode: a catalog library whose folder gives its group access (`chmod 2770
/// NAME.albumlibrary`, `chgrp family NAME.albumlibrary`) has what it creates below it give the
/// group the same (folders `0770`, files `0660` for that example); "others" are never given
/// anything. A copy of a caller's file is never readable by more people than the file was.
///
/// ```swift
/// FileSystem.shareWithGroup(under: root.path)
/// let mode = FileSystem.fileMode(for: root.path + "/originals/3f/ID.jpg")   // 0o600, or 0o660 shared
/// ```
extension FileSystem {
    /// The group bits given below each registered library folder (its path → `st_mode & 0o070`).
    private static let groupShared = Locked<[String: mode_t]>([:])

    /// Reads the folder `root`'s mode and, when it gives its group access, has files and folders
    /// created below it give the group the same access; otherwise they stay private.
    package static func shareWithGroup(under root: String) {
        guard let info = try? status(atPath: root) else { return }  // none to read: private, as by default
        let bits = info.st_mode & 0o070
        groupShared.withLock { shared in
            if bits == 0 { shared[root] = nil } else { shared[root] = bits }
        }
    }

    /// The group bits for something created at `path` (0 unless below a shared library folder).
    private static func groupBits(for path: String) -> mode_t {
        groupShared.withLock { shared in
            guard !shared.isEmpty else { return 0 }
            for (root, bits) in shared where path == root || path.hasPrefix(root + "/") { return bits }
            return 0
        }
    }

    /// The mode of a file AlbumKit creates at `path`: `0600`, plus read and write for the group
    /// below a library folder shared with its group.
    package static func fileMode(for path: String) -> mode_t { 0o600 | (groupBits(for: path) & 0o060) }

    /// The mode of a folder AlbumKit creates at `path`: `0700`, plus the group's access below a
    /// library folder shared with its group.
    package static func folderMode(for path: String) -> mode_t { 0o700 | groupBits(for: path) }

    /// The permission bits of the open `file` (`st_mode & 0o777`), `nil` when it cannot be looked at.
    package static func permissions(of file: Descriptor) -> mode_t? {
        var info = stat()
        return fstat(file.fd, &info) == 0 ? info.st_mode & 0o777 : nil
    }

    /// Sets the permission bits of the open `file` (`fchmod`).
    package static func setPermissions(_ file: Descriptor, _ mode: mode_t) throws(SystemError) {
        try injected(.write, file.path)
        guard retrying({ fchmod(file.fd, mode) }) == 0 else {
            throw SystemError("fchmod", path: file.path, errno: errno)
        }
    }

    /// Creates the empty file `path` with ``fileMode(for:)`` unless something is there already (so
    /// that a database created there next keeps that mode, as SQLite keeps a file's own).
    package static func createPrivateFile(atPath path: String) throws(SystemError) {
        try injected(.open, path)
        let fd = retrying { open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, fileMode(for: path)) }
        if fd < 0 {
            if errno == EEXIST { return }
            throw SystemError("open", path: path, errno: errno)
        }
        _ = closeCreated(fd)
    }
}

// Unqualified `close` inside `FileSystem` would resolve to `FileSystem.close(_:)`.
private func closeCreated(_ fd: Int32) -> Int32 { close(fd) }
