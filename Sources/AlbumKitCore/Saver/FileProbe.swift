/// What a save learns of a file without copying it, for recognising one the library already
/// holds (``RecognitionCheck``): its original name, size and modification time, and, when it was
/// read, its SHA-256 and head digest.
///
/// ```swift
/// let probes = media.map { FileProbe($0, hashing: false) }   // one stat each
/// let found = try await backend.recognise(probes, in: request)
/// ```
package struct FileProbe: Sendable, Hashable {
    /// The original file name a save records (``Media/originalFilename``).
    package var name: String
    package var size: Int64
    package var modified: FileStatus.Time
    /// The SHA-256 of the content (hex), when read: then the library compares content, not names.
    package var sha256: String?
    /// ``FileSystem/headDigest(size:read:)`` of the content, when read.
    package var head: String?
    /// The file probed, when the probe was made from a file on disk (``init(_:hashing:)``): a
    /// library may read it to compare content when name and size match but the time does not.
    package var path: FileSystemPath?
    /// Its companions (``Media/companions``) as they are on disk now: a photo the library holds is
    /// "already there" only when it holds these too (else the save updates its companions).
    package var companions: [Companion] = []

    /// A companion file as a probe sees it: its name, size and modification time, and its SHA-256
    /// when the probe read its photo.
    package struct Companion: Sendable, Hashable {
        package var name: String
        package var size: Int64
        package var modified: FileStatus.Time
        package var sha256: String?

        package init(name: String, size: Int64, modified: FileStatus.Time, sha256: String? = nil) {
            self.name = name
            self.size = size
            self.modified = modified
            self.sha256 = sha256
        }
    }

    package init(name: String, size: Int64, modified: FileStatus.Time, sha256: String? = nil, head: String? = nil) {
        self.name = name
        self.size = size
        self.modified = modified
        self.sha256 = sha256
        self.head = head
    }

    /// `media` as it is on disk now (`hashing`: read whole, for its SHA-256 and head digest);
    /// `nil` for media that is not a file, asks to be moved, or is not a regular file that can be
    /// read — saving it reports why.
    package init?(_ media: Media, hashing: Bool) {
        guard !media.movesFile, let name = media.originalFilename else { return nil }
        let path: FileSystemPath
        switch media.source {
        case .file(let url): path = FileSystemPath(url.path)
        case .path(let bytes): path = bytes
        case .data, .livePhoto: return nil
        }
        // A companion that cannot be read here is left to the save, which reports why (dropping the
        // error loses nothing).
        guard let companions = Self.companions(of: media, hashing: hashing) else { return nil }
        // A file that cannot be read here is left to the save, which reports why: dropping the
        // error loses nothing.
        guard !hashing else {
            // Unreadable: left to the save, which reports why.
            guard let (file, size) = try? FileSystem.openForReading(path) else { return nil }
            // The time and size of the very file hashed, even if another one takes its name meanwhile.
            guard let status = try? FileSystem.fileStatus(of: file), status.kind == .regular,
                status.size == Int64(size), let sha256 = try? FileSystem.sha256(of: file),
                let head = try? FileSystem.headDigest(
                    size: status.size,
                    read: { offset, count in
                        var bytes = [UInt8](repeating: 0, count: count)
                        let n = try bytes.withUnsafeMutableBytes { try FileSystem.read(file, into: $0, at: offset) }
                        return Array(bytes[0..<n])
                    })
            else { return nil }
            self.init(name: name, size: status.size, modified: status.modified, sha256: sha256, head: head)
            self.companions = companions
            self.path = path
            return
        }
        guard let status = media.namedStatus ?? FileSystem.fileStatus(atPath: path), status.kind == .regular else {
            return nil
        }
        self.init(name: name, size: status.size, modified: status.modified)
        self.companions = companions
        self.path = path
    }

    /// The probes of `media`'s companions; `nil` when one is not a regular file that can be read.
    private static func companions(of media: Media, hashing: Bool) -> [Companion]? {
        var found: [Companion] = []
        for companion in media.companions {
            guard let status = FileSystem.fileStatus(atPath: companion.path), status.kind == .regular else {
                return nil
            }
            var probe = Companion(name: companion.fileName, size: status.size, modified: status.modified)
            if hashing {
                // Unreadable: left to the save, which reports why (see above).
                guard let (file, _) = try? FileSystem.openForReading(companion.path) else { return nil }
                // A read failing half-way: left to the save too.
                guard let sha256 = try? FileSystem.sha256(of: file) else { return nil }
                probe.sha256 = sha256
            }
            found.append(probe)
        }
        return found
    }

    /// Whether this probe compares content (it was read) rather than name, size and time.
    package var comparesContent: Bool { sha256 != nil }
}
