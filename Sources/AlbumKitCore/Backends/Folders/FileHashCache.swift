#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SHA-256s of files already hashed, keyed by device, inode, size and modification time, so a
/// batch that checks many same-size files for duplicates hashes each file once, not once per commit.
final class FileHashCache: Sendable {
    private let hashes = Locked<[String: String]>([:])
    /// Entries kept at most (a simple bound: the cache is emptied when full).
    private let limit = 100_000

    /// The SHA-256 of `name` in `directory`, from the cache when the file has not changed.
    func sha256(of name: String, in directory: FileSystem.Descriptor) -> String? {
        guard let info = FileSystem.status(of: name, in: directory), (info.st_mode & S_IFMT) == S_IFREG else {
            return nil
        }
        let key = Self.key(info)
        if let known = hashes.withLock({ $0[key] }) { return known }
        guard let file = try? FileSystem.openFile(name, in: directory) else { return nil }
        defer { FileSystem.close(file) }
        guard let sha = try? FileSystem.sha256(of: file) else { return nil }
        remember(sha, for: info)
        return sha
    }

    /// Records the hash of a file just published (its bytes were hashed while staged).
    func remember(_ sha256: String, forFile name: String, in directory: FileSystem.Descriptor) {
        if let info = FileSystem.status(of: name, in: directory) { remember(sha256, for: info) }
    }

    private func remember(_ sha256: String, for info: stat) {
        hashes.withLock { hashes in
            if hashes.count >= limit { hashes.removeAll() }
            hashes[Self.key(info)] = sha256
        }
    }

    private static func key(_ info: stat) -> String {
        let modified = "\(info.modificationTime.tv_sec).\(info.modificationTime.tv_nsec)"
        return "\(info.st_dev):\(info.st_ino):\(info.st_size):\(modified)"
    }
}
