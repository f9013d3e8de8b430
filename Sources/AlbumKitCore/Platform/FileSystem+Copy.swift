#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if os(Linux) || os(Android)
    internal import CShims
#endif

extension FileSystem {
    /// What identifies one version of a file's content: the same file (device and inode), the same
    /// size, and no change since (modification and status-change times, to the nanosecond).
    package struct FileVersion: Equatable, Sendable {
        package var device: UInt64
        package var inode: UInt64
        package var size: UInt64
        package var modified: timespec
        package var changed: timespec
        /// Not part of the version: what kind of file it is.
        package var isRegularFile: Bool
        package var isDirectory: Bool
        /// Not part of the version: its permission bits (`st_mode & 0o7777`).
        package var permissions: mode_t = 0o600

        package static func == (a: Self, b: Self) -> Bool {
            a.device == b.device && a.inode == b.inode && a.size == b.size
                && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
                && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
        }
    }

    /// Which file a path names: its device and inode.
    package struct FileID: Hashable, Sendable {
        package var device: UInt64
        package var inode: UInt64
    }

    /// The file `path` names now (`lstat`), or `nil` when there is none.
    package static func fileID(atPath path: String) -> FileID? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return FileID(
            device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino))
    }

    /// The current version of an open file (`fstat`).
    package static func version(of file: Descriptor) throws(SystemError) -> FileVersion {
        try injected(.read, file.path)
        var info = stat()
        guard fstat(file.fd, &info) == 0 else { throw SystemError("fstat", path: file.path, errno: errno) }
        #if canImport(Darwin)
            let modified = info.st_mtimespec
            let changed = info.st_ctimespec
        #else
            let modified = info.st_mtim
            let changed = info.st_ctim
        #endif
        return FileVersion(
            device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino),
            size: UInt64(info.st_size), modified: modified, changed: changed,
            isRegularFile: (info.st_mode & S_IFMT) == S_IFREG, isDirectory: (info.st_mode & S_IFMT) == S_IFDIR,
            permissions: info.st_mode & 0o7777)
    }

    /// Opens a regular file for reading by its path bytes (which need not be valid UTF-8) and
    /// returns its version.
    ///
    /// The open never blocks: a FIFO without a writer or a device is opened with `O_NONBLOCK`,
    /// then refused by type (`EINVAL`, `EISDIR` for a directory) before anything is read. The flag
    /// stays set: reads and `copy_file_range` of a regular file ignore it, and the descriptor never
    /// leaves AlbumKit, so clearing it would cost two calls per file for nothing.
    package static func openForCopying(_ path: FileSystemPath) throws(SystemError) -> (Descriptor, FileVersion) {
        try openRegularFile(path, flags: O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
    }

    /// Opens `path` with `flags` and returns its version; anything but a regular file is refused
    /// (`EISDIR`, `EINVAL`) before anything is read. `O_NONBLOCK` keeps a FIFO from blocking the open.
    static func openRegularFile(_ path: FileSystemPath, flags: Int32) throws(SystemError) -> (Descriptor, FileVersion) {
        let file = try openPath(path, flags: flags)
        let version = try version(of: file)
        guard version.isRegularFile else {
            throw SystemError("open", path: file.path, errno: version.isDirectory ? EISDIR : EINVAL)
        }
        return (file, version)
    }

    /// Opens `path` for reading as ``openForCopying(_:)`` does, without asking what it is: for a
    /// caller that knows the file's version from a `stat` of its path and compares it with the
    /// ``version(of:)`` of what it opened once it has read it (a FIFO or device in its place then
    /// shows as another file, and is refused by that check's fallback to ``openForCopying(_:)``'s).
    ///
    /// ```swift
    /// let file = try FileSystem.openForCopyingAsNamed(FileSystemPath("IMG_1.JPG"))
    /// ```
    package static func openForCopyingAsNamed(_ path: FileSystemPath) throws(SystemError) -> Descriptor {
        try openPath(path, flags: O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
    }

    private static func openPath(_ path: FileSystemPath, flags: Int32) throws(SystemError) -> Descriptor {
        let shown = path.description
        try injected(.open, shown)
        let fd = path.withCString { name in retrying { open(name, flags) } }
        guard fd >= 0 else { throw SystemError("open", path: shown, errno: errno) }
        return Descriptor(fd: fd, path: shown)
    }

    /// Makes `destination` share `source`'s blocks (a reflink: no data is copied or written).
    /// Returns `false` where the file system cannot (then copy the bytes instead).
    package static func clone(_ source: Descriptor, to destination: Descriptor) throws(SystemError) -> Bool {
        try injected(.write, destination.path)
        #if os(Linux) || os(Android)
            if retrying({ albumkit_clone(destination.fd, source.fd) }) == 0 { return true }
            switch errno {
            case EOPNOTSUPP, EXDEV, EINVAL, ENOTTY, ENOSYS, EPERM, EBADF: return false
            default: throw SystemError("ioctl(FICLONE)", path: destination.path, errno: errno)
            }
        #else
            return false
        #endif
    }

    /// Copies up to `count` bytes at `offset` of `source` to the same offset of `destination` inside
    /// the kernel. Returns the count copied (0 at the source's end), or `nil` where the kernel or
    /// file system cannot (then copy through user space).
    package static func copyRange(
        from source: Descriptor, to destination: Descriptor, at offset: UInt64, count: Int
    ) throws(SystemError) -> Int? {
        try injected(.write, destination.path)
        #if os(Linux) || os(Android)
            let n = retrying { albumkit_copy_range(source.fd, destination.fd, Int64(offset), UInt(count)) }
            if n >= 0 { return n }
            let code = errno
            // Unsupported shows on the first call; later failures are real (a full disk, an I/O error).
            if offset == 0 && [EXDEV, ENOSYS, EOPNOTSUPP, EINVAL].contains(code) { return nil }
            throw SystemError("copy_file_range", path: code == EIO ? source.path : destination.path, errno: code)
        #else
            return nil
        #endif
    }

    /// Starts writing `count` bytes at `offset` of `file` to the disk without waiting, so the flush
    /// that makes them durable has less left to do. Only a hint: failures are ignored.
    package static func startWriteback(_ file: Descriptor, at offset: UInt64, count: UInt64) {
        #if os(Linux) || os(Android)
            _ = albumkit_start_writeback(file.fd, Int64(offset), Int64(count))
        #endif
    }
}

extension FileSystem.FileVersion {
    /// The version `status` describes (a `stat` of the file's path, or of its name in a folder).
    ///
    /// ```swift
    /// let named = FileSystem.FileVersion(FileSystem.fileStatus(atPath: "IMG_1.JPG")!)
    /// ```
    package init(_ status: FileStatus) {
        device = status.device
        inode = status.inode
        size = UInt64(max(status.size, 0))
        modified = timespec(tv_sec: time_t(status.modified.seconds), tv_nsec: Int(status.modified.nanoseconds))
        changed = timespec(tv_sec: time_t(status.changed.seconds), tv_nsec: Int(status.changed.nanoseconds))
        isRegularFile = status.kind == .regular
        isDirectory = status.kind == .directory
        permissions = mode_t(status.permissions)
    }
}
