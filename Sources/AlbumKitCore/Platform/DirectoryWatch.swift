#if os(Linux) || os(Android)
    import Glibc
    internal import CShims

    /// A folder tree watched by the kernel (inotify): every folder under the root but hidden ones
    /// (`.albumkit`, staging files' folders), each new folder added as it appears. ``takeEvents()``
    /// says, without blocking, whether anything was created, removed, renamed, written or changed
    /// since it was last asked.
    ///
    /// Only changes made on this machine are told: on a network or FUSE file system (NFS, SMB,
    /// sshfs) another machine's changes never arrive, so opening refuses them (`EOPNOTSUPP`) and
    /// the caller reads the folder on a timer instead. Opening also fails where inotify cannot
    /// watch every folder (`ENOSPC`: `fs.inotify.max_user_watches` reached; `EMFILE`).
    ///
    /// ```swift
    /// let watch = try DirectoryWatch(root: "/home/me/Pictures")
    /// if try watch.takeEvents() { reread() }
    /// ```
    package final class DirectoryWatch: LibraryWatch {
        private let fd: Int32
        private let root: String
        /// Watch descriptor → the folder it watches.
        private var folders: [Int32: String] = [:]

        /// Events that mean the folder's contents changed.
        private static let mask = UInt32(
            IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_ATTRIB | IN_DELETE_SELF
                | IN_MOVE_SELF)

        /// Watches `root` and every folder below it that is not hidden.
        ///
        /// - Throws: `EOPNOTSUPP` for a network or FUSE file system; what `inotify_init1` or
        ///   `inotify_add_watch` failed with.
        package init(root: String) throws(SystemError) {
            self.root = root
            if let code = FaultInjector.check(.watch, root) {
                throw SystemError("inotify_init1", path: root, errno: code)
            }
            try Self.requireLocalFileSystem(root)
            let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard fd >= 0 else { throw SystemError("inotify_init1", path: root, errno: errno) }
            self.fd = fd
            do throws(SystemError) { try add(root) } catch {
                close(fd)
                throw error
            }
        }

        deinit { close(fd) }

        /// Whether anything changed under the root since the last call (or since the watch
        /// started); new folders are watched from now on. Never blocks.
        ///
        /// - Throws: `EOVERFLOW` when the kernel's queue overflowed and events were lost (the caller
        ///   reads the whole folder again); what watching a new folder failed with.
        package func takeEvents() throws(SystemError) -> Bool {
            var changed = false
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN || errno == EWOULDBLOCK { return changed }
                    throw SystemError("read", path: root, errno: errno)
                }
                guard count > 0 else { return changed }
                var offset = 0
                while offset + 16 <= count {
                    let (wd, mask, length) = buffer.withUnsafeBytes { bytes in
                        (
                            bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                            bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                            Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                        )
                    }
                    let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)]
                    let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                    offset += 16 + length
                    if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                        throw SystemError("inotify", path: root, errno: EOVERFLOW)
                    }
                    if mask & UInt32(IN_IGNORED) != 0 {
                        folders.removeValue(forKey: wd)
                        continue
                    }
                    // Hidden entries are AlbumKit's own state and files being staged.
                    guard !name.hasPrefix("."), let folder = folders[wd] else { continue }
                    changed = true
                    if mask & UInt32(IN_ISDIR) != 0, mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0, !name.isEmpty {
                        try add(folder + "/" + name)
                    }
                }
            }
        }

        /// Watches `path` and the folders below it (not following links).
        private func add(_ path: String) throws(SystemError) {
            if let code = FaultInjector.check(.watch, path) {
                throw SystemError("inotify_add_watch", path: path, errno: code)
            }
            let wd = inotify_add_watch(fd, path, Self.mask | UInt32(IN_ONLYDIR | IN_DONT_FOLLOW))
            guard wd >= 0 else {
                // Gone, or not a folder (any more): nothing to watch there.
                if errno == ENOENT || errno == ENOTDIR { return }
                throw SystemError("inotify_add_watch", path: path, errno: errno)
            }
            folders[wd] = path
            let names: [String]
            do throws(SystemError) { names = try FileSystem.names(inDirectoryAt: path) } catch
                where error.errno == ENOENT || error.errno == ENOTDIR
            {
                return
            }
            for name in names where !name.hasPrefix(".") {
                let child = path + "/" + name
                if FileSystem.fileStatus(atPath: child, following: false)?.kind == .directory { try add(child) }
            }
        }

        /// Refuses file systems whose changes made elsewhere inotify does not see.
        private static func requireLocalFileSystem(_ path: String) throws(SystemError) {
            let type = albumkit_filesystem_type(path)
            guard type >= 0 else { throw SystemError("statfs", path: path, errno: errno) }
            // NFS, SMB (smbfs, cifs, smb2), FUSE (sshfs, rclone mount), AFS, Ceph, 9p, Coda.
            let remote: Set<UInt32> = [
                0x6969, 0x517B, 0xFF53_4D42, 0xFE53_4D42, 0x6573_5546, 0x5346_414F, 0x00C3_6400, 0x0102_1997,
                0x7375_7245,
            ]
            if remote.contains(UInt32(truncatingIfNeeded: type)) {
                throw SystemError("statfs", path: path, errno: EOPNOTSUPP)
            }
        }
    }
#endif
