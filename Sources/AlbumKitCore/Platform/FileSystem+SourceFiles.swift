#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What ``SourceRemoval`` asks of a caller's file before it removes it: the file opened without
/// following a symbolic link, and the folders above it, by identity.
extension FileSystem {
    /// One folder above a file: which folder it is, and whether it is an AlbumKit catalog library.
    package struct FolderAbove: Sendable {
        package var id: FileID
        package var isCatalogLibrary: Bool
    }

    /// Opens the regular file at `path` for reading without following a symbolic link as its last
    /// component (`ELOOP`), and returns its version. A FIFO, device or folder is refused
    /// (`EINVAL`, `EISDIR`) before anything is read.
    ///
    /// ```swift
    /// let (file, version) = try FileSystem.openWithoutFollowing(FileSystemPath("/card/IMG_1.JPG"))
    /// ```
    package static func openWithoutFollowing(_ path: FileSystemPath) throws(SystemError) -> (Descriptor, FileVersion) {
        try openRegularFile(path, flags: O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
    }

    /// The folders above the file `path`, nearest first, up to the file system's root: reached
    /// through `..` from the file's own folder, so whatever names or links led there, each is the
    /// folder the file really is in. A catalog library is a folder with `originals/` and its
    /// catalog or journal.
    package static func folders(above path: FileSystemPath) throws(SystemError) -> [FolderAbove] {
        let bytes = path.bytes
        let slash = UInt8(ascii: "/")
        let parent: [UInt8] =
            bytes.lastIndex(of: slash).map { $0 == 0 ? [slash] : Array(bytes[..<$0]) } ?? Array(".".utf8)
        let shown = String(decoding: parent, as: UTF8.self)
        try injected(.open, shown)
        var fd = FileSystemPath(bytes: parent).withCString { name in
            retrying { open(name, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        }
        guard fd >= 0 else { throw SystemError("open", path: shown, errno: errno) }
        defer { _ = closeFolder(fd) }
        var found: [FolderAbove] = []
        // Bounded: a file system's depth is finite, and `..` of the root is the root itself.
        for _ in 0..<4096 {
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw SystemError("fstat", path: shown, errno: errno) }
            let id = FileID(
                device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino))
            if found.last?.id == id { break }
            found.append(FolderAbove(id: id, isCatalogLibrary: holdsCatalogLibrary(fd)))
            let up = retrying { openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
            guard up >= 0 else { throw SystemError("openat", path: shown + "/..", errno: errno) }
            _ = closeFolder(fd)
            fd = up
        }
        return found
    }

    /// Whether the open folder `fd` is a catalog library (as ``CatalogFormat/isCatalogLibrary(atPath:)``
    /// tells by its files: `originals/`, and its catalog or a journal).
    static func holdsCatalogLibrary(_ fd: Int32) -> Bool {
        func kind(_ name: String) -> mode_t? {
            var info = stat()
            return fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? info.st_mode & S_IFMT : nil
        }
        guard kind("originals") == S_IFDIR else { return false }
        return ["catalog.sqlite", "journal/library.journal", "journal/saves.jsonl"].contains { kind($0) == S_IFREG }
    }
}

// Unqualified `close` inside `FileSystem` would resolve to `FileSystem.close(_:)`.
private func closeFolder(_ fd: Int32) -> Int32 { close(fd) }
