import AlbumKitCore
/// Digests of files already in album folders, keyed by device, inode, size, modification time and
/// status-change time (one entry per file version), so duplicate checks read each file at most once
/// per version. The status-change time (`ctime`), which no program can set, catches a file edited
/// in place whose modification time was put back (`exiftool -P`, `touch -r`).
///
/// Two digests: the *head* (SHA-256 of the size and the first and last 16 KiB, see
/// ``FileSystem/headDigest(size:read:)``) tells same-size files apart after reading 32 KiB; the full SHA-256
/// is read only for a file whose head matches.
final class FileHashCache: Sendable {
    private let digests = Locked<[Key: String]>([:])
    /// How many files were read whole / read at both ends (what the cache could not answer).
    let reads = Locked<(full: Int, head: Int)>((0, 0))
    /// Entries kept at most (a simple bound: the cache is emptied when full).
    private let limit = 200_000

    private struct Key: Hashable {
        var file: FileStatus.Identity
        var full: Bool
    }

    /// The head digest of `name` in `directory` (see ``FileSystem/headDigest(size:read:)``);
    /// `known` is the file's identity when the caller has just listed it (no second `stat`).
    func head(of name: String, in directory: FileSystem.Descriptor, known: FileStatus.Identity? = nil) -> String? {
        digest(of: name, in: directory, known: known, full: false) { file, size in
            try FileSystem.headDigest(size: size) { offset, count in
                var bytes = [UInt8](repeating: 0, count: count)
                let n = try bytes.withUnsafeMutableBytes { try FileSystem.read(file, into: $0, at: offset) }
                return Array(bytes[0..<n])
            }
        }
    }

    /// The SHA-256 of `name` in `directory`, from the cache when the file has not changed.
    func sha256(of name: String, in directory: FileSystem.Descriptor, known: FileStatus.Identity? = nil) -> String? {
        digest(of: name, in: directory, known: known, full: true) { file, _ in try FileSystem.sha256(of: file) }
    }

    /// The digest from the cache, else computed from the file as opened (and stored under the
    /// identity of the very file read, so a file replaced meanwhile is never misattributed).
    private func digest(
        of name: String, in directory: FileSystem.Descriptor, known: FileStatus.Identity?, full: Bool,
        _ compute: (FileSystem.Descriptor, Int64) throws -> String
    ) -> String? {
        let identity =
            known ?? FileSystem.fileStatus(of: name, in: directory).flatMap { $0.kind == .regular ? $0.identity : nil }
        if let identity, let cached = digests.withLock({ $0[Key(file: identity, full: full)] }) { return cached }
        // A file that cannot be read has no digest (`nil`): it is not recognised, and a save copies.
        guard let file = try? FileSystem.openFile(name, in: directory) else { return nil }
        // Unreadable (as above): no digest.
        guard let opened = try? FileSystem.fileStatus(of: file), opened.kind == .regular,
            let digest = try? compute(file, opened.size)
        else { return nil }
        reads.withLock { full ? ($0.full += 1) : ($0.head += 1) }
        store(digest, for: Key(file: opened.identity, full: full))
        return digest
    }

    /// Records the digests of a file just published (its bytes were hashed while staged): its
    /// SHA-256, and its head digest when known. Returns the file's identity (one `stat`).
    func remember(
        sha256: String, head: String?, forFile name: String, in directory: FileSystem.Descriptor
    ) -> FileStatus.Identity? {
        guard let info = FileSystem.fileStatus(of: name, in: directory), info.kind == .regular else { return nil }
        store(sha256, for: Key(file: info.identity, full: true))
        if let head { store(head, for: Key(file: info.identity, full: false)) }
        return info.identity
    }

    private func store(_ digest: String, for key: Key) {
        digests.withLock { digests in
            if digests.count >= limit { digests.removeAll() }
            digests[key] = digest
        }
    }
}

extension FileStatus {
    /// One version of one file: device, inode, size, modification and status-change times.
    struct Identity: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Time
        var changed: Time
    }

    var identity: Identity {
        Identity(device: device, inode: inode, size: size, modified: modified, changed: changed)
    }
}
