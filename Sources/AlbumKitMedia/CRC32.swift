/// The CRC-32 of PNG chunks (ISO 3309 / ITU-T V.42, polynomial 0xEDB88320), computed incrementally.
package struct CRC32 {
    /// Slicing by 8 (a journal's every record is checked, eight bytes a step).
    private static let tables = CRCTables.slicingBy8(reflectedPolynomial: UInt32(0xEDB8_8320))

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
        Self.tables.withUnsafeBufferPointer { t in
            var c = state
            var i = 0
            let count = buffer.count
            let raw = UnsafeRawBufferPointer(buffer)
            while i + 8 <= count {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                let low = c ^ UInt32(truncatingIfNeeded: word)
                let high = UInt32(truncatingIfNeeded: word >> 32)
                c =
                    t[7 * 256 + Int(low & 0xFF)] ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((low >> 16) & 0xFF)] ^ t[4 * 256 + Int(low >> 24)]
                    ^ t[3 * 256 + Int(high & 0xFF)] ^ t[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ t[256 + Int((high >> 16) & 0xFF)] ^ t[Int(high >> 24)]
                i += 8
            }
            while i < count {
                c = t[Int((c ^ UInt32(buffer[i])) & 0xFF)] ^ (c >> 8)
                i += 1
            }
            state = c
        }
    }

    /// The checksum of everything added so far.
    package var value: UInt32 { state ^ 0xFFFF_FFFF }
}
