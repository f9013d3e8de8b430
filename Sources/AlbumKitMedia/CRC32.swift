/// The CRC-32 of PNG chunks (ISO 3309 / ITU-T V.42, polynomial 0xEDB88320), computed incrementally.
package struct CRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    private var state: UInt32 = 0xFFFF_FFFF

    /// A checksum of nothing yet.
    package init() {}

    /// Adds `bytes` to the checksum.
    package mutating func update(_ bytes: some Collection<UInt8>) {
        // Contiguous bytes (arrays and their slices: every caller) in one tight loop; a generic
        // iterator cost a third of replaying a journal.
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in update(buffer) }
        if done == nil { Array(bytes).withUnsafeBufferPointer { update($0) } }
    }

    private mutating func update(_ buffer: UnsafeBufferPointer<UInt8>) {
        Self.table.withUnsafeBufferPointer { table in
            var c = state
            for byte in buffer { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
            state = c
        }
    }

    /// The checksum of everything added so far.
    package var value: UInt32 { state ^ 0xFFFF_FFFF }
}
