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
    /// An open file descriptor and the path it refers to.
    package struct Descriptor: Sendable {
        package let fd: Int32
        package let path: String
    }

    private static func fail(_ call: String, _ path: String, _ code: Int32 = errno) -> SystemError {
        SystemError(call, path: path, errno: code)
    }

    private static func injected(_ op: FaultInjector.Operation, _ path: String) throws(SystemError) {
        if let code = FaultInjector.check(op, path) { throw SystemError(op.rawValue, path: path, errno: code) }
    }

    // MARK: Reading

    /// Opens a regular file for reading; directories and other non-files fail with `EISDIR`/`EINVAL`.
    package static func openForReading(_ path: String) throws(SystemError) -> (Descriptor, size: UInt64) {
        try injected(.open, path)
        let fd = retrying { open(path, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw fail("open", path) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let error = fail("fstat", path)
            _ = Glibc_close(fd)
            throw error
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            _ = Glibc_close(fd)
            throw fail("open", path, (info.st_mode & S_IFMT) == S_IFDIR ? EISDIR : EINVAL)
        }
        return (Descriptor(fd: fd, path: path), UInt64(info.st_size))
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

    /// Flushes a file's data and metadata to stable storage.
    package static func fsync(_ file: Descriptor) throws(SystemError) {
        try injected(.fsync, file.path)
        guard retrying({ Glibc_fsync(file.fd) }) == 0 else { throw fail("fsync", file.path) }
    }

    /// Flushes the whole file system holding `file` (one barrier for a batch; `fsync` elsewhere).
    package static func syncFileSystem(_ file: Descriptor) throws(SystemError) {
        try injected(.fsync, file.path)
        #if os(Linux) || os(Android)
            guard albumkit_syncfs(file.fd) == 0 else { throw fail("syncfs", file.path) }
        #else
            guard Glibc_fsync(file.fd) == 0 else { throw fail("fsync", file.path) }
        #endif
    }

    package static func close(_ file: Descriptor) { _ = Glibc_close(file.fd) }

    /// Throws the `access(2)` failure of the first of `paths` this process cannot write.
    package static func checkWritable(_ paths: String...) throws(SystemError) {
        for path in paths where access(path, W_OK) != 0 { throw fail("access", path) }
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
    package static func makeDirectory(_ name: String, in parent: Descriptor, mode: mode_t = 0o755) throws(SystemError)
        -> Bool
    {
        let path = parent.path + "/" + name
        try injected(.mkdir, path)
        if mkdirat(parent.fd, name, mode) == 0 { return true }
        if errno == EEXIST { return false }
        throw fail("mkdir", path)
    }

    /// Creates directory `path` (and its missing parents); returns `false` when it already existed.
    @discardableResult
    package static func makeDirectory(atPath path: String, mode: mode_t = 0o755) throws(SystemError) -> Bool {
        try injected(.mkdir, path)
        if mkdir(path, mode) == 0 { return true }
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

    // MARK: Staging and publishing

    /// A file being written that no one else can see yet.
    package struct StagedFile: Sendable {
        package let descriptor: Descriptor
        /// The directory the file will be published in.
        package let directory: Descriptor
        /// The hidden name of the staged file when `O_TMPFILE` was unavailable.
        package let temporaryName: String?
    }

    /// Creates an invisible file in `directory`, open for reading and writing: an unnamed `O_TMPFILE` inode on Linux, else a hidden
    /// `.NAME.partial` file (named from `fallbackName`).
    package static func stage(in directory: Descriptor, fallbackName: String) throws(SystemError) -> StagedFile {
        try injected(.open, directory.path + "/" + fallbackName)
        #if os(Linux) || os(Android)
            let anonymous = retrying { albumkit_open_tmpfile(directory.fd, 0o644) }
            if anonymous >= 0 {
                return StagedFile(
                    descriptor: Descriptor(fd: anonymous, path: directory.path + "/(staged)"), directory: directory,
                    temporaryName: nil)
            }
            let code = errno
            guard code == EOPNOTSUPP || code == EISDIR || code == EINVAL || code == ENOENT else {
                throw fail("open(O_TMPFILE)", directory.path, code)
            }
        #endif
        let name = fallbackName
        let fd = retrying { openat(directory.fd, name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw fail("open", directory.path + "/" + name) }
        return StagedFile(
            descriptor: Descriptor(fd: fd, path: directory.path + "/" + name), directory: directory,
            temporaryName: name)
    }

    /// Gives a staged file its final `name` in its directory without ever replacing an existing file.
    ///
    /// - Throws: `EEXIST` when the name is taken; `ENOENT` when the directory vanished.
    package static func publish(_ staged: StagedFile, as name: String) throws(SystemError) {
        let path = staged.directory.path + "/" + name
        try injected(.publish, path)
        if let temporary = staged.temporaryName {
            // link() never replaces; the hidden name is removed once the real one exists.
            guard linkat(staged.directory.fd, temporary, staged.directory.fd, name, 0) == 0 else {
                throw fail("link", path)
            }
            _ = unlinkat(staged.directory.fd, temporary, 0)
            return
        }
        let procPath = "/proc/self/fd/\(staged.descriptor.fd)"
        guard linkat(AT_FDCWD, procPath, staged.directory.fd, name, AT_SYMLINK_FOLLOW) == 0 else {
            throw fail("linkat", path)
        }
    }

    /// Closes a staged file that will not be published and removes its hidden name, if any.
    package static func abandon(_ staged: StagedFile) {
        close(staged.descriptor)
        if let temporary = staged.temporaryName { _ = unlinkat(staged.directory.fd, temporary, 0) }
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

    private static func retrying<T: BinaryInteger>(_ call: () -> T) -> T {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }
}

// Unqualified `write`/`fsync`/`close` would resolve to the static members above.
private func Glibc_write(_ fd: Int32, _ buf: UnsafeRawPointer, _ n: Int) -> Int { write(fd, buf, n) }
private func Glibc_fsync(_ fd: Int32) -> Int32 { fsync(fd) }
private func Glibc_close(_ fd: Int32) -> Int32 { close(fd) }
