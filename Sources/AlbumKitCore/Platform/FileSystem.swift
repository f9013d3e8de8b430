import AlbumKitMedia
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if os(Linux) || os(Android)
    internal import CShims
#endif

/// The system calls AlbumKit's file writes are made of, each checked, retried on `EINTR`, and
/// open to fault injection in debug builds. Paths travel with descriptors for messages and mocking.
package enum FileSystem {
    /// An open file descriptor and the path it refers to, which closes itself exactly once: when
    /// its last reference goes, or earlier at ``FileSystem/close(_:)`` (a lock to release now, a
    /// file another process must see closed). Every descriptor the libraries open is one of these,
    /// so a function that opens a file and returns or throws has nothing to close by hand.
    ///
    /// ```swift
    /// let folder = try FileSystem.openDirectory("/data/Photos")
    /// let names = try FileSystem.names(in: folder)   // closed when `folder` goes
    /// ```
    ///
    /// A final class rather than a `~Copyable` struct: descriptors are shared by staged files,
    /// batches, upload queues and closures that run on other threads, which a non-copyable value
    /// cannot be without borrowing through every one of them. The cost is one allocation per open
    /// file, next to the `open` system call itself.
    package final class Descriptor: Sendable {
        package let fd: Int32
        package let path: String
        /// `false` once closed: the descriptor's number may then belong to another file.
        private let isOpen = Locked(true)

        /// Takes ownership of `fd`, an open descriptor no one else closes.
        package init(fd: Int32, path: String) {
            self.fd = fd
            self.path = path
        }

        deinit { close() }

        /// Closes the descriptor now unless it was closed already.
        package func close() {
            let wasOpen = isOpen.withLock { isOpen -> Bool in
                defer { isOpen = false }
                return isOpen
            }
            guard wasOpen else { return }
            let closed = Glibc_close(fd)
            // A descriptor closed behind this owner's back (by its number) may have been another
            // thread's file that took the number: always a bug, so debug builds (the tests) stop on it.
            assert(closed == 0 || errno != EBADF, "\(path) (descriptor \(fd)) was closed by someone else")
        }
    }

    static func fail(_ call: String, _ path: String, _ code: Int32 = errno) -> SystemError {
        SystemError(call, path: path, errno: code)
    }

    static func injected(_ op: FaultInjector.Operation, _ path: String) throws(SystemError) {
        if let code = FaultInjector.check(op, path) { throw SystemError(op.rawValue, path: path, errno: code) }
    }

    // MARK: Reading

    /// Opens a regular file for reading; directories and other non-files fail with `EISDIR`/`EINVAL`.
    package static func openForReading(_ path: String) throws(SystemError) -> (Descriptor, size: UInt64) {
        try openForReading(FileSystemPath(path))
    }

    /// Opens a regular file for reading by its path bytes (which need not be valid UTF-8).
    ///
    /// The open never blocks: a FIFO without a writer or a device is opened with `O_NONBLOCK`,
    /// then refused by type (`EINVAL`, `EISDIR` for a directory) before anything is read.
    package static func openForReading(_ path: FileSystemPath) throws(SystemError) -> (Descriptor, size: UInt64) {
        let (file, version) = try openForCopying(path)
        return (file, version.size)
    }

    /// Reads up to `count` bytes at `offset` into `buffer`; returns the count read (0 at the end).
    package static func read(
        _ file: Descriptor, into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64
    ) throws(SystemError) -> Int {
        try injected(.read, file.path)
        var total = 0
        while total < buffer.count {
            let n = retrying {
                pread(file.fd, buffer.baseAddress! + total, buffer.count - total, off_t(offset) + off_t(total))
            }
            if n < 0 { throw fail("read", file.path) }
            if n == 0 { break }
            total += n
        }
        return total
    }

    // MARK: Writing

    /// Writes all of `bytes` at `offset` (not moving the file's offset).
    package static func write(_ file: Descriptor, _ bytes: [UInt8], at offset: Int64) throws(SystemError) {
        try injected(.write, file.path)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                retrying { pwrite(file.fd, raw.baseAddress! + done, raw.count - done, off_t(offset) + off_t(done)) }
            }
            guard n > 0 else { throw fail("write", file.path) }
            done += n
        }
    }

    /// Writes all of `bytes`.
    package static func write(_ file: Descriptor, _ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        try injected(.write, file.path)
        var done = 0
        while done < bytes.count {
            let n = retrying { Glibc_write(file.fd, bytes.baseAddress! + done, bytes.count - done) }
            if n < 0 { throw fail("write", file.path) }
            done += n
        }
    }

    /// Writes all of `bytes`.
    package static func write(_ file: Descriptor, _ bytes: [UInt8]) throws(SystemError) {
        var failure: SystemError?
        bytes.withUnsafeBytes { buffer in
            do throws(SystemError) { try write(file, buffer) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Allocates disk for `length` more bytes after the end of `file`, without changing its size,
    /// so that appending them later cannot run out of space (Linux; elsewhere, and where the file
    /// system cannot, it does nothing).
    ///
    /// - Throws: `ENOSPC` when the disk is full (as a write there would fail).
    package static func reserve(_ length: Int, after file: Descriptor, size: Int64) throws(SystemError) {
        try injected(.write, file.path)
        #if os(Linux) || os(Android)
            guard retrying({ albumkit_reserve_after_end(file.fd, size, Int64(length)) }) != 0 else { return }
            let code = errno
            guard code == EOPNOTSUPP || code == ENOSYS || code == EINVAL else {
                throw fail("fallocate", file.path, code)
            }
        #endif
    }

    /// Reads the whole file from `offset` on.
    package static func readAll(_ file: Descriptor, from offset: UInt64, size: UInt64) throws(SystemError) -> [UInt8] {
        guard offset < size else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int(size - offset))
        var result: Result<Int, SystemError> = .success(0)
        bytes.withUnsafeMutableBytes { buffer in
            do throws(SystemError) { result = .success(try read(file, into: buffer, at: offset)) } catch {
                result = .failure(error)
            }
        }
        let count = try result.get()
        return Array(bytes[0..<count])
    }

    /// Everything from `file`'s start to its end, read `chunk` bytes at a time: for files whose
    /// size is not known ahead (`/proc`'s report 0), without a buffer sized for the worst case.
    package static func readToEnd(_ file: Descriptor, chunk: Int = 16 << 10) throws(SystemError) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: chunk)
        var result: Result<Int, SystemError> = .success(0)
        repeat {
            buffer.withUnsafeMutableBytes { raw in
                do throws(SystemError) { result = .success(try read(file, into: raw, at: UInt64(bytes.count))) } catch {
                    result = .failure(error)
                }
            }
            bytes += buffer[0..<(try result.get())]
        } while try result.get() == chunk
        return bytes
    }

    /// Flushes a file's data and metadata to stable storage (on Darwin with `F_FULLFSYNC`: there
    /// `fsync` leaves the data in the drive's cache).
    package static func fsync(_ file: Descriptor) throws(SystemError) {
        try flush([file])
    }

    /// Flushes every file of a batch to stable storage, with one barrier for the whole batch
    /// (``FlushStep/plan(forBatchOf:on:wholeFileSystem:)`` says which calls; tests pass another `platform` to run
    /// Darwin's plan on Linux, where `F_FULLFSYNC` becomes `fsync`).
    package static func flush(
        _ files: [Descriptor], on platform: FlushStep.Platform = .current, wholeFileSystem: Bool = false
    ) throws(SystemError) {
        for step in FlushStep.plan(forBatchOf: files.count, on: platform, wholeFileSystem: wholeFileSystem) {
            switch step {
            case .syncFileSystem(let index):
                try injected(.fsync, files[index].path)
                #if os(Linux) || os(Android)
                    guard albumkit_syncfs(files[index].fd) == 0 else { throw fail("syncfs", files[index].path) }
                #else
                    preconditionFailure("syncfs exists only on Linux")
                #endif
            case .fsync(let index):
                try injected(.fsync, files[index].path)
                guard retrying({ Glibc_fsync(files[index].fd) }) == 0 else { throw fail("fsync", files[index].path) }
            case .fullFsync(let index):
                try injected(.fsync, files[index].path)
                #if canImport(Darwin)
                    // File systems without F_FULLFSYNC (SMB, some USB drives) refuse it: `fsync`
                    // is the most they offer (SQLite falls back the same way).
                    if retrying({ fcntl(files[index].fd, F_FULLFSYNC) }) == 0 { continue }
                #endif
                guard retrying({ Glibc_fsync(files[index].fd) }) == 0 else { throw fail("fsync", files[index].path) }
            }
        }
    }

    /// Closes `file` now, before its last reference goes (``Descriptor``): to release a lock, or
    /// where the moment matters. Closing it again does nothing.
    package static func close(_ file: Descriptor) {
        file.close()
    }

    /// A second descriptor for the same open file (closed on exec), to be closed on its own.
    package static func duplicate(_ file: Descriptor) throws(SystemError) -> Descriptor {
        try injected(.open, file.path)
        let fd = fcntl(file.fd, F_DUPFD_CLOEXEC, 0)
        guard fd >= 0 else { throw fail("fcntl", file.path) }
        return Descriptor(fd: fd, path: file.path)
    }

    /// Throws the `access(2)` failure of the first of `paths` this process cannot write.
    package static func checkWritable(_ paths: String...) throws(SystemError) {
        for path in paths {
            try injected(.access, path)
            if access(path, W_OK) != 0 { throw fail("access", path) }
        }
    }

    // MARK: Directories

    /// Opens a directory without following a symlink at its last component.
    package static func openDirectory(_ path: String) throws(SystemError) -> Descriptor {
        try injected(.open, path)
        let fd = retrying { open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        guard fd >= 0 else { throw fail("open", path) }
        return Descriptor(fd: fd, path: path)
    }

    /// Opens the directory `name` inside `parent`, refusing symlinks.
    package static func openDirectory(_ name: String, in parent: Descriptor) throws(SystemError) -> Descriptor {
        let path = parent.path + "/" + name
        try injected(.open, path)
        let fd = retrying { openat(parent.fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        guard fd >= 0 else { throw fail("openat", path) }
        return Descriptor(fd: fd, path: path)
    }

    /// Creates directory `name` in `parent`; returns `false` when it already existed.
    @discardableResult
    package static func makeDirectory(_ name: String, in parent: Descriptor, mode: mode_t? = nil) throws(SystemError)
        -> Bool
    {
        let path = parent.path + "/" + name
        try injected(.mkdir, path)
        if mkdirat(parent.fd, name, mode ?? folderMode(for: path)) == 0 {
            TestPause.at("folder-made")
            // A folder shared with the group gets the group's access whatever the umask.
            if mode == nil, folderMode(for: path) != 0o700 {
                setFolderMode(
                    openat(parent.fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), folderMode(for: path))
            }
            return true
        }
        if errno == EEXIST { return false }
        throw fail("mkdir", path)
    }

    /// Creates directory `path` (and its missing parents); returns `false` when it already existed.
    @discardableResult
    package static func makeDirectory(atPath path: String, mode given: mode_t? = nil) throws(SystemError) -> Bool {
        try injected(.mkdir, path)
        let mode = given ?? folderMode(for: path)
        if mkdir(path, mode) == 0 {
            TestPause.at("folder-made")
            // (As above: the group's access whatever the umask.)
            if given == nil, mode != 0o700 {
                setFolderMode(open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), mode)
            }
            return true
        }
        if errno == EEXIST { return false }
        if errno == ENOENT {
            let parent = (path as NSString).deletingLastPathComponent
            if !parent.isEmpty, parent != path {
                try makeDirectory(atPath: parent)
                if mkdir(path, mode) == 0 || errno == EEXIST { return true }
            }
        }
        throw fail("mkdir", path)
    }

    /// Gives the folder just made, opened as `fd` without following a link, the mode `mode`, and
    /// closes it. Never by name: a link someone put in the new folder's place meanwhile (a member
    /// of a shared library's group may rename entries there) would lead `chmod` to a file of the
    /// owner's elsewhere and give the group access to it. `fd < 0` (no folder there now): nothing.
    private static func setFolderMode(_ fd: Int32, _ mode: mode_t) {
        guard fd >= 0 else { return }
        _ = fchmod(fd, mode)
        _ = Glibc_close(fd)
    }

    /// Removes `name` from `directory` (a published file being rolled back, a stray file).
    package static func unlink(_ name: String, in directory: Descriptor) throws(SystemError) {
        try injected(.unlink, directory.path + "/" + name)
        guard unlinkat(directory.fd, name, 0) == 0 || errno == ENOENT else {
            throw fail("unlink", directory.path + "/" + name)
        }
    }

    /// `fstatat` without following symlinks; `nil` when the name does not exist.
    package static func status(of name: String, in directory: Descriptor) -> stat? {
        var info = stat()
        guard fstatat(directory.fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return info
    }

    /// Opens (creating it) the file at `path` for appending.
    package static func openForAppending(_ path: String) throws(SystemError) -> Descriptor {
        try injected(.open, path)
        let fd = retrying { open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, fileMode(for: path)) }
        guard fd >= 0 else { throw fail("open", path) }
        return Descriptor(fd: fd, path: path)
    }

    /// Renames `path` to `newPath`, replacing it (AlbumKit's own bookkeeping files only, never photos).
    package static func rename(_ path: String, to newPath: String) throws(SystemError) {
        try injected(.publish, newPath)
        guard Glibc_rename(path, newPath) == 0 else { throw fail("rename", newPath) }
    }

    /// `stat` of `path` (following symlinks); `nil` when it does not exist.
    package static func status(atPath path: String) throws(SystemError) -> stat? {
        try injected(.stat, path)
        var info = stat()
        if stat(path, &info) == 0 { return info }
        if errno == ENOENT || errno == ENOTDIR { return nil }
        throw fail("stat", path)
    }

    #if os(Linux) || os(Android)
        /// The identifier of the mount `path` is on that is never reused while the machine runs
        /// (`statx`'s `STATX_MNT_ID_UNIQUE`, Linux 6.8 and later): it changes when the file system is
        /// unmounted and mounted again, where the mount id and the device number may come back the
        /// same. `nil` where the kernel does not give it.
        package static func uniqueMountID(atPath path: String) throws(SystemError) -> UInt64? {
            try injected(.stat, path)
            let found = albumkit_unique_mount_id(path)
            if found < 0 { throw fail("statx", path) }
            return found == 0 ? nil : UInt64(found)
        }
    #endif

    /// Removes the file at `path`, given as bytes (a name need not be valid UTF-8); a missing file
    /// is not an error.
    package static func unlink(_ path: FileSystemPath) throws(SystemError) {
        try injected(.unlink, path.description)
        guard path.withCString({ Glibc_unlinkName($0) }) == 0 || errno == ENOENT else {
            throw fail("unlink", path.description)
        }
    }

    /// Throws the `access(2)` failure when this process cannot write the folder `path` (bytes).
    package static func checkWritable(_ path: FileSystemPath) throws(SystemError) {
        try injected(.access, path.description)
        if path.withCString({ access($0, W_OK) }) != 0 { throw fail("access", path.description) }
    }

    /// Removes the file at `path`; a missing file is not an error.
    package static func unlink(_ path: String) throws(SystemError) {
        try injected(.unlink, path)
        guard Glibc_unlink(path) == 0 || errno == ENOENT else { throw fail("unlink", path) }
    }

    /// Cuts `file` back to `length` bytes (undoing an append that failed part-way).
    package static func truncate(_ file: Descriptor, to length: Int64) throws(SystemError) {
        try injected(.write, file.path)
        guard retrying({ ftruncate(file.fd, off_t(length)) }) == 0 else { throw fail("ftruncate", file.path) }
    }

    /// Flushes `file`'s data (and the size, when it grew) to stable storage, without its times:
    /// `fdatasync` on Linux; on Darwin `F_FULLFSYNC`, which empties the drive's cache too.
    package static func flushData(_ file: Descriptor) throws(SystemError) {
        try injected(.fsync, file.path)
        #if canImport(Darwin)
            if retrying({ fcntl(file.fd, F_FULLFSYNC) }) == 0 { return }
            guard retrying({ Glibc_fsync(file.fd) }) == 0 else { throw fail("fsync", file.path) }
        #else
            guard retrying({ fdatasync(file.fd) }) == 0 else { throw fail("fdatasync", file.path) }
        #endif
    }

    /// Opens (creating it when missing) the file at `path` for reading and appending.
    package static func openForReadingAndAppending(_ path: String) throws(SystemError) -> Descriptor {
        try injected(.open, path)
        let fd = retrying { open(path, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, fileMode(for: path)) }
        guard fd >= 0 else { throw fail("open", path) }
        return Descriptor(fd: fd, path: path)
    }

    /// The size of the open `file`.
    package static func size(of file: Descriptor) throws(SystemError) -> Int64 {
        var info = stat()
        guard fstat(file.fd, &info) == 0 else { throw fail("fstat", file.path) }
        return Int64(info.st_size)
    }

    /// Whether `path` still names the open `file` (same device and inode).
    package static func isSameFile(_ file: Descriptor, _ path: String) -> Bool {
        var open = stat()
        var named = stat()
        guard fstat(file.fd, &open) == 0, lstat(path, &named) == 0 else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    /// The names in the directory at `path`, without `.` and `..` (names that are not UTF-8 skipped).
    package static func names(inDirectoryAt path: String) throws(SystemError) -> [String] {
        let directory = try openDirectory(path)
        return try names(in: directory)
    }

    static func retrying<T: BinaryInteger>(_ call: () -> T) -> T {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }
}

// Unqualified `write`/`fsync`/`close` would resolve to the static members above.
private func Glibc_write(_ fd: Int32, _ buf: UnsafeRawPointer, _ n: Int) -> Int { write(fd, buf, n) }
private func Glibc_fsync(_ fd: Int32) -> Int32 { fsync(fd) }
func Glibc_close(_ fd: Int32) -> Int32 { close(fd) }
private func Glibc_unlink(_ path: String) -> Int32 { unlink(path) }
private func Glibc_unlinkName(_ path: UnsafePointer<CChar>) -> Int32 { unlink(path) }
private func Glibc_rename(_ from: String, _ to: String) -> Int32 { rename(from, to) }
