import AlbumKitCore
import AlbumKitMedia
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The catalog library's one source of truth, `journal/library.journal`: every change
/// (``CatalogChange``) in the order it happened, appended and flushed before it is acknowledged.
///
/// The file starts with one line, `albumkit-journal 2 <id>`, that names this journal (the catalog
/// built from it records the id). Each record is then one line: the CRC-32 of the JSON in eight
/// hexadecimal digits, a space, the JSON, a line feed. So
///
/// - a **torn tail** (an append cut short by a crash or a power loss: bytes after the last line
///   feed, or a last line that fails its checksum) is recognised and ignored, and the next writer
///   moves it to `damaged/` before it appends;
/// - a **damaged record** in the middle (a flipped bit, an overwritten line) fails its checksum:
///   it is reported with what it affects and skipped, and every record after it still reads.
///
/// ```swift
/// let journal = LibraryJournal(libraryRoot: "/data/Photos.albumlibrary")
/// let reading = try journal.read(from: position)
/// for entry in reading.entries { try index.apply(entry.change) }
/// ```
package struct LibraryJournal: Sendable {
    let path: String

    package init(libraryRoot: String) { path = libraryRoot + "/journal/library.journal" }

    static let headerPrefix = Array("albumkit-journal 2 ".utf8)

    /// A record read, and where the next one starts.
    struct Entry: Sendable {
        var change: CatalogChange
        /// Where the record starts (what a refusal to apply it is reported at).
        var offset: Int64
        var end: Int64
    }

    /// A record in the middle of the journal that cannot be read, or that names a file outside
    /// the library's `originals/` (``CatalogChange/pathsOutsideOriginals``).
    struct DamagedRecord: Sendable, Hashable {
        var offset: Int64
        /// What it was about, when its JSON still reads ("the save of IMG_0001.JPG …").
        var affects: String?
    }

    /// What ``read(from:limit:)`` found.
    struct Reading: Sendable {
        var id: String
        var entries: [Entry] = []
        var damaged: [DamagedRecord] = []
        /// Where the records read end: the position to resume from.
        var end: Int64
        /// Bytes after ``end`` that are not (yet) a whole record: an append in progress, or one a
        /// crash cut short.
        var tornBytes: Int64 = 0
        /// The digest given to the read, extended with every byte read up to ``end``.
        var digest = JournalDigest()
        /// The last line read (up to ``end``), when a line was read: where it starts and its
        /// digest alone.
        var lastLine: (start: Int64, digest: JournalDigest)?

        /// Adds the bytes read from `start` up to ``end`` to ``digest`` and ``lastLine``.
        fileprivate mutating func finish(_ bytes: [UInt8], readFrom start: Int64, lastLineStart: Int64?) {
            digest.update(bytes[0..<Int(end - start)])
            if let lastLineStart {
                lastLine = (lastLineStart, JournalDigest(of: bytes[Int(lastLineStart - start)..<Int(end - start)]))
            }
        }
    }

    /// The journal's size (0 when it does not exist).
    func length() -> Int64 {
        // A journal that cannot be looked at counts as empty here; reading it, next, reports why.
        ((try? FileSystem.status(atPath: path)) ?? nil).map { Int64($0.st_size) } ?? 0
    }

    /// Whether the journal exists.
    var exists: Bool { FileSystem.fileStatus(atPath: path, following: false) != nil }

    /// The journal's id and where its first record starts.
    ///
    /// - Throws: `ENOENT` when there is no journal; `EILSEQ` when its first line is not the header.
    func identity() throws(SystemError) -> (id: String, recordsStart: Int64) {
        let (file, _) = try FileSystem.openForReading(path)
        defer { FileSystem.close(file) }
        return try Self.header(of: file, path: path)
    }

    // MARK: Creating

    /// Writes a new journal holding `changes`, durably, in place of none: written to a hidden
    /// file, flushed, then renamed into place and its folder flushed. A crash leaves no journal or
    /// the whole one.
    ///
    /// - Throws: `EEXIST` when a journal appeared meanwhile (another process created it).
    static func create(
        atLibraryRoot root: String, id: String = UUID().uuidString.lowercased(), changes: [CatalogChange] = []
    ) throws(SystemError) {
        let folder = root + "/journal"
        try FileSystem.makeDirectory(atPath: folder)
        let temporary = folder + "/" + StagingName(kind: "journal").fileName
        do throws(SystemError) {
            let file = try FileSystem.openForAppending(temporary)
            do {
                defer { FileSystem.close(file) }
                var bytes = headerPrefix + Array(id.utf8) + [0x0A]
                for change in changes {
                    bytes += line(for: change)
                    if bytes.count > 4 << 20 {
                        try FileSystem.write(file, bytes)
                        bytes.removeAll(keepingCapacity: true)
                    }
                }
                try FileSystem.write(file, bytes)
                try FileSystem.fsync(file)
            }
            let directory = try FileSystem.openDirectory(folder)
            defer { FileSystem.close(directory) }
            try FileSystem.renameWithoutReplacing(
                (temporary as NSString).lastPathComponent, in: directory, to: "library.journal", in: directory)
            try FileSystem.fsync(directory)
        } catch {
            // Ours and never acknowledged.
            try? FileSystem.unlink(temporary)
            throw error
        }
    }

    /// One record's line.
    static func line(for change: CatalogChange) -> [UInt8] {
        let json = change.json
        var crc = CRC32()
        crc.update(json)
        return hex8(crc.value) + [0x20] + json + [0x0A]
    }

    private static func hex8(_ value: UInt32) -> [UInt8] {
        (0..<8).reversed().map { shift in
            let nibble = UInt8((value >> (UInt32(shift) * 4)) & 0xF)
            return nibble < 10 ? 0x30 + nibble : 0x61 + nibble - 10
        }
    }

    /// Appends `changes` as another process would, under the journal's lock, flushed: for tools
    /// that make a library's records in bulk (`album-bench`). The library applies them at its next
    /// read. No decision is checked: the records must be valid for the library as it is.
    package func append(_ changes: [CatalogChange]) throws(SystemError) {
        let file = try FileSystem.openForReadingAndAppending(path)
        defer { FileSystem.close(file) }
        try FileSystem.lock(file, wait: true)
        var bytes: [UInt8] = []
        for change in changes { bytes += Self.line(for: change) }
        try FileSystem.write(file, bytes)
        try FileSystem.flushData(file)
    }

    // MARK: Reading

    /// The journal file and its size: `open` when given (the caller closes it), else the file at
    /// the journal's path, opened now (the caller closes it when `open` is `nil`).
    private func openForReading(
        through open: FileSystem.Descriptor?
    ) throws(SystemError) -> (FileSystem.Descriptor, UInt64) {
        if let open { return (open, UInt64(try FileSystem.size(of: open))) }
        return try FileSystem.openForReading(path)
    }

    /// The records from byte `offset` on (the first record when `nil`), at most `limit` bytes of
    /// them at a time (the caller reads on from ``Reading/end``; a record longer than `limit` is
    /// read whole, in a read as long as it), read through `open` when the
    /// caller holds the journal open (a commit, under its lock: one descriptor for the commit),
    /// else through a descriptor opened for this read.
    ///
    /// - Throws: `ENOENT` when there is no journal; `EILSEQ` when the file is not a journal (its
    ///   first line is not the header).
    ///
    /// The reading's ``Reading/digest`` is `digest` extended with the bytes from `offset` to
    /// ``Reading/end``.
    ///
    /// Not `parsing`, a record whose checksum matches is passed over unread (no ``Reading/entries``):
    /// a check of the journal's checksums, which finds the records damaged since they were written
    /// but not those whole and naming files elsewhere.
    func read(
        from offset: Int64? = nil, limit: Int = 4 << 20, through open: FileSystem.Descriptor? = nil,
        continuing digest: JournalDigest = JournalDigest(), parsing: Bool = true
    ) throws(SystemError) -> Reading {
        let (file, size) = try openForReading(through: open)
        defer { if open == nil { FileSystem.close(file) } }
        let (id, headerEnd) = try Self.header(of: file, path: path)
        let start = max(offset ?? headerEnd, headerEnd)
        var reading = Reading(id: id, end: start, digest: digest)
        guard Int64(size) > start else { return reading }
        let count = Int(min(Int64(size) - start, Int64(limit)))
        let bytes = try FileSystem.readAll(file, from: UInt64(start), size: UInt64(start) + UInt64(count))
        var lineStart = 0
        var lines: [(range: Range<Int>, isLast: Bool)] = []
        while let newline = bytes[lineStart...].firstIndex(of: 0x0A) {
            lines.append((lineStart..<newline, false))
            lineStart = newline + 1
        }
        let atEndOfFile = start + Int64(count) == Int64(size)
        // Not one whole record in `limit` bytes: a longer record, read again in a longer read.
        if lines.isEmpty && !atEndOfFile {
            return try read(from: offset, limit: limit * 2, through: open, continuing: digest, parsing: parsing)
        }
        if !lines.isEmpty && atEndOfFile && lineStart == bytes.count { lines[lines.count - 1].isLast = true }
        var lastLineStart: Int64?
        for (range, isLast) in lines {
            let lineEnd = start + Int64(range.upperBound) + 1
            guard !range.isEmpty else {
                reading.end = lineEnd
                lastLineStart = start + Int64(range.lowerBound)
                continue
            }
            let offset = start + Int64(range.lowerBound)
            if !parsing, Self.checksumMatches(bytes[range]) {
                reading.end = lineEnd
                lastLineStart = offset
            } else if let change = Self.change(in: bytes[range]) {
                let outside = change.pathsOutsideOriginals
                if outside.isEmpty {
                    reading.entries.append(Entry(change: change, offset: offset, end: lineEnd))
                } else {
                    // Whole (its checksum matches) but naming files elsewhere: damaged, never
                    // applied, and never taken for a torn append either.
                    reading.damaged.append(
                        DamagedRecord(
                            offset: offset,
                            affects:
                                "\(change.summary), which names \(outside.map { "\"\($0)\"" }.joined(separator: ", ")), not a file of the library's originals/"
                        ))
                }
                reading.end = lineEnd
                lastLineStart = start + Int64(range.lowerBound)
            } else if isLast {
                // The last line failing its checksum: an append whose end reached the disk and
                // whose beginning did not. Torn, like bytes without a line feed.
                reading.tornBytes = lineEnd - reading.end
                reading.finish(bytes, readFrom: start, lastLineStart: lastLineStart)
                return reading
            } else {
                let json = bytes[range].count > 9 ? bytes[range].dropFirst(9) : bytes[range][...]
                reading.damaged.append(
                    DamagedRecord(offset: offset, affects: CatalogChange(json: json)?.summary))
                reading.end = lineEnd
                lastLineStart = start + Int64(range.lowerBound)
            }
        }
        if atEndOfFile { reading.tornBytes = Int64(size) - reading.end }
        reading.finish(bytes, readFrom: start, lastLineStart: lastLineStart)
        return reading
    }

    /// Every record from `offset` on, in reads of at most `limit` bytes, handed to `body` in order
    /// (through `open` when given, see ``read(from:limit:through:)``).
    func forEachRecord(
        from offset: Int64? = nil, through open: FileSystem.Descriptor? = nil,
        continuing digest: JournalDigest = JournalDigest(), parsing: Bool = true, _ body: (Reading) throws -> Void
    ) throws -> Reading {
        var reading = try read(from: offset, through: open, continuing: digest, parsing: parsing)
        var total = reading
        try body(reading)
        func length() throws -> Int64 {
            guard let open else { return self.length() }
            return try FileSystem.size(of: open)
        }
        // On while each read gets further (a read that does not holds no whole record).
        var previousEnd = offset ?? -1
        while reading.tornBytes == 0, reading.end > previousEnd, try reading.end < length() {
            previousEnd = reading.end
            reading = try read(from: reading.end, through: open, continuing: reading.digest, parsing: parsing)
            try body(reading)
            total.entries = []
            total.damaged += reading.damaged
            total.end = reading.end
            total.tornBytes = reading.tornBytes
            total.digest = reading.digest
            total.lastLine = reading.lastLine ?? total.lastLine
        }
        total.entries = []
        return total
    }

    /// The digest of the journal's bytes from `start` to `end`, read again from the file (through
    /// `open` when given); `nil` when the journal ends before `end`.
    func digest(
        from start: Int64, to end: Int64, continuing digest: JournalDigest = JournalDigest(),
        through open: FileSystem.Descriptor? = nil
    ) throws(SystemError) -> JournalDigest? {
        let (file, size) = try openForReading(through: open)
        defer { if open == nil { FileSystem.close(file) } }
        guard start >= 0, start <= end, UInt64(end) <= size else { return nil }
        var digest = digest
        var offset = UInt64(start)
        while offset < UInt64(end) {
            let next = min(UInt64(end), offset + (8 << 20))
            digest.update(try FileSystem.readAll(file, from: offset, size: next))
            offset = next
        }
        return digest
    }

    /// The change a line holds when its checksum matches.
    private static func change(in line: ArraySlice<UInt8>) -> CatalogChange? {
        guard checksumMatches(line) else { return nil }
        return CatalogChange(json: line.dropFirst(9))
    }

    /// Whether a line is a checksum (eight hex digits), a space and JSON whose CRC-32 it is.
    private static func checksumMatches(_ line: ArraySlice<UInt8>) -> Bool {
        guard line.count > 10, line[line.startIndex + 8] == 0x20 else { return false }
        var expected: UInt32 = 0
        for byte in line.prefix(8) {
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: return false
            }
            expected = expected << 4 | UInt32(digit)
        }
        var crc = CRC32()
        crc.update(line.dropFirst(9))
        return crc.value == expected
    }

    /// The journal's id and where its first record starts.
    static func header(of file: FileSystem.Descriptor, path: String) throws(SystemError) -> (String, Int64) {
        let head = try FileSystem.readAll(file, from: 0, size: 128)
        guard head.starts(with: headerPrefix), let newline = head.firstIndex(of: 0x0A) else {
            throw SystemError("read", path: path, errno: EILSEQ)
        }
        let id = String(decoding: head[headerPrefix.count..<newline], as: UTF8.self)
        guard !id.isEmpty, id.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw SystemError("read", path: path, errno: EILSEQ)
        }
        return (id, Int64(newline + 1))
    }
}
