import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if os(Linux) || os(Android)
    internal import CShims
#endif

/// The extra system calls the folder library needs: listing a directory through its descriptor,
/// small marker files, no-clobber renames, cross-directory publishing, a library-wide lock and a
/// symlink-safe recursive removal. Like ``FileSystem``, every call is checked, retried on `EINTR`
/// and open to ``FaultInjector`` in debug builds.
extension FileSystem {
    private static func check(_ operation: FaultInjector.Operation, _ path: String) throws(SystemError) {
        if let code = FaultInjector.check(operation, path) {
            throw SystemError(operation.rawValue, path: path, errno: code)
        }
    }

    private static func again<T: BinaryInteger>(_ call: () -> T) -> T {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }

    /// Opens a library root, following a symlink the user chose (e.g. `~/Pictures` → `/data/Pictures`).
    /// Everything below the root is opened relative to this descriptor with `O_NOFOLLOW`.
    package static func openRoot(_ path: String) throws(SystemError) -> Descriptor {
        try check(.open, path)
        let fd = again { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { throw SystemError("open", path: path, errno: errno) }
        return Descriptor(fd: fd, path: path)
    }

    /// `body`'s result, or `nil` when it fails because of the file or folder itself (unreadable,
    /// gone, not a folder), as `try?` would; but a process out of file descriptors rethrows: then
    /// nothing is known about the folder, and "no albums" or "empty" would be a lie.
    package static func unlessOutOfDescriptors<T>(_ body: () throws(SystemError) -> T) throws(SystemError) -> T? {
        do { return try body() } catch  where error.isOutOfDescriptors { throw error } catch {
            return nil
        }
    }

    /// One name in a folder, with the kind the listing gives (`d_type`), which costs no `stat`.
    package struct Entry: Sendable {
        package let name: String
        /// `nil` when the file system does not say (`DT_UNKNOWN`): ask `stat`.
        package let kind: FileStatus.Kind?
        /// The inode the name leads to (`d_ino`).
        package let inode: UInt64

        /// Whether the entry may be a folder (it is one, or the listing does not say).
        package var mayBeFolder: Bool { kind == nil || kind == .directory }

        /// Whether the entry is a regular file, asking `stat` only when the listing does not say.
        package func isRegularFile(in directory: Descriptor) -> Bool {
            if let kind { return kind == .regular }
            return FileSystem.fileStatus(of: name, in: directory)?.kind == .regular
        }
    }

    /// The names in `directory` (without `.` and `..`), read through the descriptor so a concurrent
    /// rename of the path cannot redirect the listing. Names that are not valid UTF-8 are skipped.
    package static func names(in directory: Descriptor) throws(SystemError) -> [String] {
        try entries(in: directory).map(\.name)
    }

    /// The entries of `directory`, as ``names(in:)`` lists them, each with its kind when the file
    /// system gives it: a walk for folders, or a count of photos, need not `stat` every photo.
    ///
    /// ```swift
    /// for entry in try FileSystem.entries(in: root) where entry.mayBeFolder { print(entry.name) }
    /// ```
    package static func entries(in directory: Descriptor) throws(SystemError) -> [Entry] {
        try entryBytes(in: directory).compactMap { entry in
            let name = (entry.name + [0]).withUnsafeBufferPointer {
                $0.withMemoryRebound(to: CChar.self) { String(validatingCString: $0.baseAddress!) }
            }
            return name.map { Entry(name: $0, kind: entry.kind, inode: entry.inode) }
        }
    }

    /// The entries of `directory` with their names as the bytes the file system keeps, names that
    /// are not valid UTF-8 included (a walk of someone's photos must not skip them).
    package static func entryBytes(in directory: Descriptor) throws(SystemError) -> [(
        name: [UInt8], kind: FileStatus.Kind?, inode: UInt64
    )] {
        try check(.read, directory.path)
        let copy = dup(directory.fd)
        guard copy >= 0 else { throw SystemError("dup", path: directory.path, errno: errno) }
        guard let stream = fdopendir(copy) else {
            let error = SystemError("fdopendir", path: directory.path, errno: errno)
            _ = closeDescriptor(copy)
            throw error
        }
        defer { closedir(stream) }
        rewinddir(stream)  // `dup` shares the offset with `directory`
        var entries: [(name: [UInt8], kind: FileStatus.Kind?, inode: UInt64)] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                if errno != 0 { throw SystemError("readdir", path: directory.path, errno: errno) }
                break
            }
            // The name is read in place, up to its terminator: `d_name` is declared as 256 bytes but
            // the record may be shorter, and copying the whole field from the last record of
            // glibc's buffer read past its end (a crash in a folder of 1 500 photos).
            let start = UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!
            let name = Array(
                UnsafeRawBufferPointer(start: start, count: strlen(start.assumingMemoryBound(to: CChar.self))))
            guard name != [0x2E], name != [0x2E, 0x2E] else { continue }
            let kind: FileStatus.Kind? =
                switch Int(entry.pointee.d_type) {
                case Int(DT_REG): .regular
                case Int(DT_DIR): .directory
                case Int(DT_LNK): .symbolicLink
                case Int(DT_UNKNOWN): nil
                default: .other
                }
            entries.append((name, kind, UInt64(entry.pointee.d_ino)))
        }
        return entries
    }

    /// Opens the regular file `name` in `directory` for reading, refusing symlinks (`ELOOP`) and
    /// anything that is not a regular file (`EINVAL`, `EISDIR` for a folder).
    ///
    /// The open never blocks: it is made with `O_NONBLOCK`, so a FIFO without a writer (someone's
    /// `mkfifo .albumkit-album`) or a device opens at once and is then refused by its type, before
    /// anything is read. Every reader of AlbumKit's own small files (album markers, `albums.json`,
    /// staging notes) and of photos in album folders opens through here.
    package static func openFile(_ name: String, in directory: Descriptor) throws(SystemError) -> Descriptor {
        try openFileWithSize(name, in: directory).file
    }

    /// As ``openFile(_:in:)``, with the file's size as the status that proved it regular says.
    package static func openFileWithSize(
        _ name: String, in directory: Descriptor
    ) throws(SystemError) -> (file: Descriptor, size: UInt64) {
        let path = directory.path + "/" + name
        try check(.open, path)
        let fd = again { openat(directory.fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) }
        guard fd >= 0 else { throw SystemError("openat", path: path, errno: errno) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let error = SystemError("fstat", path: path, errno: errno)
            _ = closeDescriptor(fd)
            throw error
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            _ = closeDescriptor(fd)
            throw SystemError("openat", path: path, errno: (info.st_mode & S_IFMT) == S_IFDIR ? EISDIR : EINVAL)
        }
        // Reads block as usual from here on (`O_NONBLOCK` means nothing to a regular file's reads,
        // but clearing it keeps the descriptor plain for whoever reads it). Of the flags the open
        // above set, `O_NONBLOCK` is the only one `F_SETFL` changes: no `F_GETFL` first (a call
        // a file fewer when `verify` reads a million).
        _ = fcntl(fd, F_SETFL, 0)
        return (Descriptor(fd: fd, path: path), UInt64(max(0, info.st_size)))
    }

    /// Reads a small regular file `name` in `directory` (at most `limit` bytes); `nil` when it
    /// does not exist. Opened with ``openFile(_:in:)``: a symlink fails with `ELOOP`, and a FIFO,
    /// socket, device or folder in its place fails at once with `EINVAL` (`EISDIR`), never waits.
    package static func readSmallFile(
        _ name: String, in directory: Descriptor, limit: Int = 64 * 1024
    ) throws(SystemError) -> [UInt8]? {
        let file: Descriptor
        do throws(SystemError) { file = try openFile(name, in: directory) } catch  where error.errno == ENOENT {
            return nil
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: limit, alignment: 8)
        defer { buffer.deallocate() }
        let n = try read(file, into: buffer, at: 0)
        return Array(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
    }

    /// Creates `name` in `directory` (which must not exist), writes `bytes` and flushes them.
    package static func createFile(_ name: String, in directory: Descriptor, bytes: [UInt8]) throws(SystemError) {
        let path = directory.path + "/" + name
        try check(.open, path)
        let fd = again {
            openat(directory.fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, fileMode(for: path))
        }
        guard fd >= 0 else { throw SystemError("openat", path: path, errno: errno) }
        let file = Descriptor(fd: fd, path: path)
        do throws(SystemError) {
            let failure = bytes.withUnsafeBytes { buffer -> SystemError? in
                do throws(SystemError) { try write(file, buffer) } catch { return error }
                return nil
            }
            if let failure { throw failure }
            try fsync(file)
        } catch {
            close(file)  // before its name goes
            _ = unlinkat(directory.fd, name, 0)
            throw error
        }
    }

    /// Renames `name` in `from` to `newName` in `to` without ever replacing an existing entry.
    /// The corresponding C function is `renameat2` with `RENAME_NOREPLACE`.
    ///
    /// - Throws: `EEXIST` when `newName` is taken.
    package static func renameWithoutReplacing(
        _ name: String, in from: Descriptor, to newName: String, in to: Descriptor
    ) throws(SystemError) {
        let path = to.path + "/" + newName
        try check(.publish, path)
        #if os(Linux) || os(Android)
            guard again({ albumkit_rename_noreplace(from.fd, name, to.fd, newName) }) == 0 else {
                throw SystemError("renameat2", path: path, errno: errno)
            }
        #else
            guard renameatx_np(from.fd, name, to.fd, newName, UInt32(RENAME_EXCL)) == 0 else {
                throw SystemError("renameatx_np", path: path, errno: errno)
            }
        #endif
    }

    /// Renames `name` in `from` to `newName` in `to`, atomically replacing `newName` (used only for
    /// AlbumKit's own marker and state files, never for photos).
    package static func renameReplacing(
        _ name: String, in from: Descriptor, to newName: String, in to: Descriptor
    ) throws(SystemError) {
        let path = to.path + "/" + newName
        try check(.publish, path)
        guard again({ renameat(from.fd, name, to.fd, newName) }) == 0 else {
            throw SystemError("renameat", path: path, errno: errno)
        }
    }

    /// Gives a staged file the name `name` in `directory` (any directory of the same file system),
    /// never replacing an existing file. A hidden staging name, if any, stays until ``abandon(_:)``
    /// so the file can be published again if the album folder vanishes.
    ///
    /// - Throws: `EEXIST` when the name is taken; `ENOENT` when `directory` was deleted.
    package static func publish(_ staged: StagedFile, into directory: Descriptor, as name: String) throws(SystemError) {
        let path = directory.path + "/" + name
        try check(.publish, path)
        if let temporary = staged.temporaryName {
            guard linkat(staged.directory.fd, temporary, directory.fd, name, 0) == 0 else {
                throw SystemError("link", path: path, errno: errno)
            }
            return
        }
        let procPath = "/proc/self/fd/\(staged.descriptor.fd)"
        guard linkat(AT_FDCWD, procPath, directory.fd, name, AT_SYMLINK_FOLLOW) == 0 else {
            throw SystemError("linkat", path: path, errno: errno)
        }
    }

    /// Takes the library-wide exclusive lock on the open lock file (`flock`), waiting for it.
    /// The lock is released when the descriptor is closed, also when the process dies.
    package static func lockExclusively(_ file: Descriptor) throws(SystemError) {
        guard again({ flock(file.fd, LOCK_EX) }) == 0 else { throw SystemError("flock", path: file.path, errno: errno) }
    }

    /// Opens (creating it if needed) the file `name` in `directory` for locking.
    package static func openLockFile(_ name: String, in directory: Descriptor) throws(SystemError) -> Descriptor {
        let path = directory.path + "/" + name
        try check(.open, path)
        let fd = again { openat(directory.fd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, fileMode(for: path)) }
        guard fd >= 0 else { throw SystemError("openat", path: path, errno: errno) }
        return Descriptor(fd: fd, path: path)
    }

    /// Removes the directory `name` in `parent` and everything in it, never following a symlink
    /// (a symlink inside is removed itself, not what it points to).
    package static func removeTree(_ name: String, in parent: Descriptor) throws(SystemError) {
        let path = parent.path + "/" + name
        try check(.unlink, path)
        if unlinkat(parent.fd, name, 0) == 0 || errno == ENOENT { return }
        guard errno == EISDIR || errno == EPERM else { throw SystemError("unlink", path: path, errno: errno) }
        let directory = try openDirectory(name, in: parent)
        for entry in try names(in: directory) {
            if let info = status(of: entry, in: directory), (info.st_mode & S_IFMT) == S_IFDIR {
                try removeTree(entry, in: directory)
            } else {
                try unlink(entry, in: directory)
            }
        }
        close(directory)  // before the folder goes
        guard unlinkat(parent.fd, name, AT_REMOVEDIR) == 0 || errno == ENOENT else {
            throw SystemError("rmdir", path: path, errno: errno)
        }
    }
}

// Unqualified `close` inside `FileSystem` would resolve to `FileSystem.close(_:)`.
private func closeDescriptor(_ fd: Int32) -> Int32 { close(fd) }

extension FileSystem {
    /// Opens the folder at the path of `components` below `root` one level at a time, never
    /// following a symlink at any level (a symlinked level fails with `ELOOP` or `ENOTDIR`).
    package static func openDirectory(components: [String], in root: Descriptor) throws(SystemError) -> Descriptor {
        var current = try reopen(root)
        for name in components {
            current = try openDirectory(name, in: current)
        }
        return current
    }

    /// Opens a staged file for reading (to copy it to another file system).
    package static func openStagedForReading(_ staged: StagedFile) throws(SystemError) -> Descriptor {
        try check(.open, staged.descriptor.path)
        let fd: Int32
        if let temporary = staged.temporaryName {
            fd = openat(staged.directory.fd, temporary, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        } else {
            fd = open("/proc/self/fd/\(staged.descriptor.fd)", O_RDONLY | O_CLOEXEC)
        }
        guard fd >= 0 else { throw SystemError("open", path: staged.descriptor.path, errno: errno) }
        return Descriptor(fd: fd, path: staged.descriptor.path)
    }

    /// Renames `name` in `from` to `newName` in `to`, replacing nothing, and reports the failure
    /// instead of throwing (for moves that are tried under several names).
    package static func tryRename(
        _ name: String, in from: Descriptor, to newName: String, in to: Descriptor
    ) -> SystemError? {
        do { try renameWithoutReplacing(name, in: from, to: newName, in: to) } catch { return error }
        return nil
    }
}

extension FileSystem {
    /// Opens the directory at an absolute `path`, following symlinks on the way (the Trash under a
    /// symlinked `~/.local/share` is still the user's Trash).
    package static func openDirectory(atPathFollowing path: String) throws(SystemError) -> Descriptor {
        try check(.open, path)
        let fd = again { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { throw SystemError("open", path: path, errno: errno) }
        return Descriptor(fd: fd, path: path)
    }
}

extension FileSystem {
    /// Removes the directory `name` in `parent` only when it is empty; returns whether it did.
    @discardableResult
    package static func removeEmptyDirectory(_ name: String, in parent: Descriptor) -> Bool {
        if FaultInjector.check(.unlink, parent.path + "/" + name) != nil { return false }
        return unlinkat(parent.fd, name, AT_REMOVEDIR) == 0
    }

    /// `stat` of an absolute path, following symlinks (`lstat` when `following` is false).
    package static func fileStatus(atPath path: String, following: Bool = true) -> FileStatus? {
        fileStatus(atPath: FileSystemPath(path), following: following)
    }
}

extension FileSystem {
    /// A second descriptor for the directory `directory` (closed separately), with the same path.
    package static func reopen(_ directory: Descriptor) throws(SystemError) -> Descriptor {
        try check(.open, directory.path)
        let fd = again { openat(directory.fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { throw SystemError("openat", path: directory.path, errno: errno) }
        return Descriptor(fd: fd, path: directory.path)
    }
}
