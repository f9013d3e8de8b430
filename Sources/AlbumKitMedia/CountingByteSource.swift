/// A ``ByteSource`` that counts the bytes and reads that pass through it.
///
/// Use it to measure how much of a file inspection touches (headers only, not the whole file).
///
/// ```swift
/// let counting = CountingByteSource(fileSource)
/// let metadata = try MediaInspector().inspect(counting)
/// print("read \(counting.bytesRead) of \(counting.size) bytes in \(counting.readCount) reads")
/// ```
public final class CountingByteSource<Base: ByteSource>: ByteSource {
    private struct Counts {
        var bytes: UInt64 = 0
        var reads = 0
    }

    /// The wrapped source.
    public let base: Base
    private let counts = Locked(Counts())

    /// Wraps `base`.
    ///
    /// ```swift
    /// let counting = CountingByteSource(BufferByteSource(bytes: bytes))
    /// ```
    public init(_ base: Base) { self.base = base }

    /// The size of the wrapped source.
    public var size: UInt64 { base.size }

    /// Reads from the wrapped source and counts the bytes returned.
    ///
    /// ```swift
    /// let header = try counting.read(at: 0, count: 16)
    /// ```
    public func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        let bytes = try base.read(at: offset, count: count)
        counts.withLock {
            $0.bytes += UInt64(bytes.count)
            $0.reads += 1
        }
        return bytes
    }

    /// The total number of bytes read so far.
    ///
    /// ```swift
    /// #expect(counting.bytesRead < 1 << 20)
    /// ```
    public var bytesRead: UInt64 { counts.withLock { $0.bytes } }

    /// The number of `read(at:count:)` calls so far.
    ///
    /// ```swift
    /// print(counting.readCount)
    /// ```
    public var readCount: Int { counts.withLock { $0.reads } }

    /// Sets both counters back to zero.
    ///
    /// ```swift
    /// counting.reset()
    /// ```
    public func reset() { counts.withLock { $0 = Counts() } }
}

extension CountingByteSource: Sendable where Base: Sendable {}
