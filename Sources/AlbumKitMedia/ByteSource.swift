/// Random access to the bytes of a file or buffer, read on demand.
///
/// Media inspection reads only the headers and boxes it needs through this seam,
/// so a 2 GB video costs a few kilobytes of reads.
///
/// ```swift
/// let source = BufferByteSource(bytes: Array(data))
/// let header = try source.read(at: 0, count: 12)
/// ```
public protocol ByteSource {
    /// The total size in bytes.
    var size: UInt64 { get }

    /// Reads up to `count` bytes starting at `offset`; fewer only at the end of the source.
    func read(at offset: UInt64, count: Int) throws -> [UInt8]
}

/// A ``ByteSource`` over bytes already in memory.
///
/// ```swift
/// let metadata = try MediaInspector().inspect(BufferByteSource(bytes: jpegBytes))
/// ```
public struct BufferByteSource: ByteSource, Sendable {
    /// The bytes.
    public let bytes: [UInt8]

    /// Wraps `bytes`.
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// The number of bytes.
    public var size: UInt64 { UInt64(bytes.count) }

    /// Reads up to `count` bytes at `offset`.
    public func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        guard offset < size, count > 0 else { return [] }
        let start = Int(offset)
        let end = min(bytes.count, start + count)
        return Array(bytes[start..<end])
    }
}
