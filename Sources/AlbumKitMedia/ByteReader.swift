/// Bounded, cached reads over a ``ByteSource`` for the parsers of one inspection.
///
/// Every read is range-checked with overflow-safe arithmetic; a read that does not fit in the
/// source returns `nil` (or throws `.corrupt` through ``require(at:count:what:)``), and no read is
/// larger than ``maxRead``, so an untrusted length can never cause a large allocation.
final class ByteReader {
    /// The largest single read a parser may ask for.
    static let maxRead = 4 << 20
    /// Small reads are served from a window of this many bytes.
    static let windowSize = 8 << 10

    let source: any ByteSource
    let size: UInt64
    /// The damage parsers tolerated, in the order found (at most ``maxWarnings``).
    private(set) var warnings: [String] = []
    static let maxWarnings = 16
    private var window: [UInt8] = []
    private var windowStart: UInt64 = 0

    init(_ source: any ByteSource) {
        self.source = source
        self.size = source.size
    }

    /// Records damage a parser tolerates (said once; at most ``maxWarnings`` are kept).
    func warn(_ warning: String) {
        guard warnings.count < Self.maxWarnings, !warnings.contains(warning) else { return }
        warnings.append(warning)
    }

    /// Whether `count` bytes at `offset` lie inside the source.
    func contains(_ offset: UInt64, _ count: UInt64) -> Bool {
        let (end, overflow) = offset.addingReportingOverflow(count)
        return !overflow && end <= size
    }

    /// Exactly `count` bytes at `offset`, or `nil` when they are not all in the source.
    func bytes(at offset: UInt64, count: Int) throws(MediaInspectionError) -> [UInt8]? {
        guard count >= 0, count <= Self.maxRead, contains(offset, UInt64(count)) else { return nil }
        if count == 0 { return [] }
        let end = offset + UInt64(count)
        if offset >= windowStart, end <= windowStart + UInt64(window.count) {
            let start = Int(offset - windowStart)
            return Array(window[start..<start + count])
        }
        if count >= Self.windowSize {
            let bytes = try raw(at: offset, count: count)
            return bytes.count == count ? bytes : nil
        }
        let length = Int(min(UInt64(Self.windowSize), size - offset))
        window = try raw(at: offset, count: length)
        windowStart = offset
        guard window.count >= count else { return nil }
        return Array(window[0..<count])
    }

    /// Exactly `count` bytes at `offset`; throws `.corrupt` naming `what` when they run past the end.
    func require(at offset: UInt64, count: Int, what: @autoclosure () -> String) throws(MediaInspectionError) -> [UInt8]
    {
        guard let bytes = try bytes(at: offset, count: count) else {
            throw MediaInspectionError(.corrupt, "\(what()) at offset \(offset) runs past the end of the file")
        }
        return bytes
    }

    /// One byte, or `nil` past the end.
    func byte(at offset: UInt64) throws(MediaInspectionError) -> UInt8? {
        try bytes(at: offset, count: 1)?.first
    }

    private func raw(at offset: UInt64, count: Int) throws(MediaInspectionError) -> [UInt8] {
        do {
            let bytes = try source.read(at: offset, count: count)
            return bytes.count > count ? Array(bytes[0..<count]) : bytes
        } catch {
            throw MediaInspectionError(.unreadable, "the file could not be read (\(error))")
        }
    }
}
