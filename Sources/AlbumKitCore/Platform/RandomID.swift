#if os(Linux) || os(Android)
    internal import CShims
#endif

/// Random identifiers in the UUID format (version 4, lowercase), cut from a pool of kernel random
/// bytes refilled 4 KiB at a time: Foundation's `UUID()` opens and reads `/dev/urandom` for each one
/// on Linux (three system calls per saved file), `SystemRandomNumberGenerator` asks the kernel for
/// every 8 bytes.
///
/// ```swift
/// let id = RandomID.make()   // "3f2c41d0-7a1b-43e8-9d2e-5b7c0a1f9e64"
/// ```
package enum RandomID {
    private static let pool = Locked((bytes: [UInt8](), next: 0))

    /// A new random version-4 UUID string, lowercase.
    package static func make() -> String {
        var bytes = pool.withLock { pool -> [UInt8] in
            if pool.next + 16 > pool.bytes.count {
                pool.bytes = refill(4096)
                pool.next = 0
            }
            defer { pool.next += 16 }
            return Array(pool.bytes[pool.next..<pool.next + 16])
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // variant 10
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static func refill(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        #if os(Linux) || os(Android)
            var filled = 0
            while filled < count {
                let n = bytes.withUnsafeMutableBytes { albumkit_random($0.baseAddress! + filled, UInt(count - filled)) }
                if n > 0 { filled += n } else { break }  // EINTR or no entropy call: finish below
            }
            if filled == count { return bytes }
        #endif
        var generator = SystemRandomNumberGenerator()
        for index in bytes.indices { bytes[index] = generator.next() }
        return bytes
    }
}
