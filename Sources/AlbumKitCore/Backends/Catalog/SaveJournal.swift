import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The catalog library's durable record of every save and album change, kept outside the catalog
/// (`journal/saves.jsonl`) so a lost, reset, old or damaged catalog can be detected and rebuilt.
///
/// One JSON object per line, appended (`O_APPEND`, one `write` per batch) and flushed after the
/// catalog committed and before the save is acknowledged: for a save, the flushed record is the
/// commit point (its catalog commit is not flushed itself). A line cut short by a crash is skipped.
///
/// ```swift
/// try SaveJournal(directory: root + "/journal").append([.save(asset: "…", …)])
/// ```
struct SaveJournal {
    let path: String

    init(libraryRoot: String) { path = libraryRoot + "/journal/saves.jsonl" }

    /// One line of the journal.
    struct Record: Codable, Equatable, Sendable {
        enum Operation: String, Codable, Sendable {
            /// An asset saved (or an existing one added to an album).
            case save
            /// An album created, renamed or deleted.
            case createAlbum, renameAlbum, deleteAlbum
            /// An asset removed from an album (`asset`, `album`); it stays in the library.
            case removeFromAlbum
            /// An asset deleted from the library (`asset`), recorded before its row and file go.
            case deleteAsset
        }
        var op: Operation
        var asset: String?
        var path: String?
        var name: String?
        var size: Int64?
        var sha256: String?
        /// When the asset was added to the library (seconds since 1970).
        var added: Double?
        var album: String?
        var title: String?
        /// When the album was created, or the asset added to it.
        var at: Double?
        /// For a save: the pending row it completes (the asset's own id, or the row of a copy whose
        /// bytes were already saved), so that opening the library can finish a save whose catalog
        /// commit was lost with the power (``CatalogBackend/rollForward()``).
        var pending: String?
        /// For a save (and the album its commit created): the commit it belongs to, and how many
        /// saves that commit recorded, so that a commit whose records were cut short by a crash is
        /// never finished in part.
        var batch: String?
        var of: Int?
        /// For a deletion: the process that made it (``ProcessOwner``). A deletion whose process
        /// died before it marked the rows never happened; opening the library records the assets
        /// as saved again (``CatalogBackend/journalGaps(afterACrashOf:)``).
        var owner: String?

        /// The record as one JSON object, keys sorted.
        var json: [UInt8] {
            var object = JSONObjectWriter()
            object.add("added", added)
            object.add("album", album)
            object.add("asset", asset)
            object.add("at", at)
            object.add("batch", batch)
            object.add("name", name)
            object.add("of", of)
            object.add("op", op.rawValue)
            object.add("owner", owner)
            object.add("path", path)
            object.add("pending", pending)
            object.add("sha256", sha256)
            object.add("size", size)
            object.add("title", title)
            return object.bytes
        }
    }

    /// The assets `records` say the library holds: saved (by a commit whose records are all
    /// there) and not deleted afterwards.
    static func savedAssets(in records: [Record]) -> Set<String> {
        var saved = Set<String>()
        let isWhole = wholeCommits(in: records)
        for record in records where isWhole(record) {
            guard let asset = record.asset else { continue }
            if record.op == .save { saved.insert(asset) } else if record.op == .deleteAsset { saved.remove(asset) }
        }
        return saved
    }

    /// Whether a record belongs to a commit all of whose save records are in `records`: a crash
    /// can cut an append short, and a commit recorded in part was never acknowledged. Records
    /// without a commit (`batch`) count as whole.
    static func wholeCommits(in records: [Record]) -> (Record) -> Bool {
        var recorded: [String: Int] = [:]
        for record in records where record.op == .save {
            if let batch = record.batch { recorded[batch, default: 0] += 1 }
        }
        return { record in
            guard let batch = record.batch, let count = record.of else { return true }
            return recorded[batch, default: 0] >= count
        }
    }

    /// The journal's size in bytes (0 when it does not exist yet).
    func length() -> Int64 {
        ((try? FileSystem.status(atPath: path)) ?? nil).map { Int64($0.st_size) } ?? 0
    }

    /// Allocates disk for `bytes` more of records before a commit: a full disk then fails the save
    /// before anything is committed, not at its commit point, after the catalog committed (where a
    /// record cut short by the full disk was also left behind).
    func reserveSpace(bytes: Int) throws(SystemError) {
        let file = try openForAppending()
        defer { FileSystem.close(file) }
        let size = Int64(try FileSystem.fileStatus(of: file).size)
        try FileSystem.reserve(bytes, after: file, size: size)
    }

    /// At most how many bytes the records of a commit take: the fixed fields, and the names and the
    /// title, each byte of which JSON may write as six (`\u001f`).
    static func bytesNeeded(forSavesNamed names: [String?], title: String?) -> Int {
        let titleBytes = 6 * (title?.utf8.count ?? 0)
        return names.reduce(1024 + titleBytes) { total, name in total + 768 + titleBytes + 6 * (name?.utf8.count ?? 0) }
    }

    /// Appends `records` in one write, then flushes them unless `flush` is `false` (a barrier
    /// such as `syncfs` covers them). A record a failure cuts short is skipped by readers (the next
    /// append starts on a new line); the journal is never cut back, as other processes may have
    /// appended after it.
    func append(_ records: [Record], flush: Bool = true) throws(SystemError) {
        guard !records.isEmpty else { return }
        // A leading newline ends a line a crash may have cut; empty lines are skipped.
        var bytes: [UInt8] = [0x0A]
        for record in records {
            bytes += record.json
            bytes.append(0x0A)
        }
        let file = try openForAppending()
        defer { FileSystem.close(file) }
        try FileSystem.write(file, bytes)
        if flush { try FileSystem.fsync(file) }
    }

    /// Opens the journal for appending, creating it (and `journal/`) when missing.
    private func openForAppending() throws(SystemError) -> FileSystem.Descriptor {
        do { return try FileSystem.openForAppending(path) } catch  where error.errno == ENOENT {
            try FileSystem.makeDirectory(atPath: (path as NSString).deletingLastPathComponent)
            return try FileSystem.openForAppending(path)
        }
    }

    /// The records from byte `offset` on (all when 0), skipping lines that do not parse.
    func records(from offset: Int64 = 0) throws(SystemError) -> [Record] {
        let file: FileSystem.Descriptor
        let size: UInt64
        do { (file, size) = try FileSystem.openForReading(path) } catch {
            if error.errno == ENOENT { return [] }
            throw error
        }
        defer { FileSystem.close(file) }
        let bytes = try FileSystem.readAll(file, from: UInt64(max(0, offset)), size: size)
        return bytes.split(separator: 0x0A).compactMap { Record(line: $0) }
    }
}

extension SaveJournal.Record {
    /// The record in one line of the journal; `nil` when the line is not one (cut short by a
    /// crash, or a member of another type), as `JSONDecoder` would refuse it.
    init?(line: some Collection<UInt8>) {
        guard let object = JSONObjectReader(line) else { return nil }
        do throws(JSONObjectReader.TypeMismatch) {
            guard let op = try object.string("op").flatMap(Operation.init(rawValue:)) else { return nil }
            self.op = op
            asset = try object.string("asset")
            path = try object.string("path")
            name = try object.string("name")
            size = try object.int64("size")
            sha256 = try object.string("sha256")
            added = try object.double("added")
            album = try object.string("album")
            title = try object.string("title")
            at = try object.double("at")
            pending = try object.string("pending")
            batch = try object.string("batch")
            of = try object.int64("of").flatMap { Int(exactly: $0) }
            owner = try object.string("owner")
        } catch {
            return nil
        }
    }
}
