extension FileSystem {
    /// Streams `file` from its start in 1 MiB chunks; memory does not grow with file size.
    /// Returns the number of bytes read.
    @discardableResult
    package static func forEachChunk(
        of file: Descriptor, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> UInt64 {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var offset: UInt64 = 0
        while true {
            let n = try read(file, into: buffer, at: offset)
            if n == 0 { return offset }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            offset += UInt64(n)
            // A read that did not fill the buffer met the end (``read(_:into:at:)`` reads until
            // the buffer is full or a read returns nothing): no read more to learn it again.
            if n < buffer.count { return offset }
        }
    }

    /// The SHA-256 (hex) of an open file's whole content.
    package static func sha256(of file: Descriptor) throws -> String {
        var hasher = SHA256Hasher()
        try forEachChunk(of: file) { hasher.update($0) }
        return hasher.finalize()
    }

    /// Bytes read from each end of a file for its head digest.
    package static let headBytes = 16 * 1024

    /// SHA-256 (hex) of the size and the first and last ``headBytes`` bytes of a file of `size`
    /// bytes, read through `read(offset, count)`.
    package static func headDigest(size: Int64, read: (UInt64, Int) throws -> [UInt8]) rethrows -> String {
        var hasher = SHA256Hasher()
        withUnsafeBytes(of: size.littleEndian) { hasher.update($0) }
        let first = try read(0, Int(min(Int64(headBytes), size)))
        first.withUnsafeBytes { hasher.update($0) }
        if size > Int64(headBytes) {
            let start = max(Int64(headBytes), size - Int64(headBytes))
            let last = try read(UInt64(start), Int(size - start))
            last.withUnsafeBytes { hasher.update($0) }
        }
        return hasher.finalize()
    }
}
