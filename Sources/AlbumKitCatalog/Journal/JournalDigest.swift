import AlbumKitMedia

/// A running checksum of the journal's bytes (CRC-64, the polynomial of the XZ format), kept by
/// an index or a snapshot for the part of the journal it applied: the proof that it was built
/// from a prefix of *this* journal and not from a copy of the library that went on differently.
///
/// It can be continued from its value alone, so the index stores one integer and extends it with
/// each record it applies, and a check reads the journal's bytes again and compares.
///
/// ```swift
/// var digest = JournalDigest()
/// digest.update(lineBytes)
/// let stored = digest.value                      // kept in the index
/// var next = JournalDigest(continuing: stored)   // extended by the next records
/// ```
struct JournalDigest: Equatable {
    /// Slicing by 8: eight bytes a step (a rebuild checks a whole journal).
    private static let tables = CRCTables.slicingBy8(reflectedPolynomial: UInt64(0xC96C_5795_D787_0F42))

    private var state: UInt64

    /// The digest of no bytes.
    init() { state = ~0 }

    /// The digest whose ``value`` is `value`, to extend with the bytes that follow.
    init(continuing value: UInt64) { state = ~value }

    /// The digest of `bytes` alone.
    init(of bytes: some Collection<UInt8>) {
        self.init()
        update(bytes)
    }

    mutating func update(_ bytes: some Collection<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in update(buffer) }
        if done == nil { Array(bytes).withUnsafeBufferPointer { update($0) } }
    }

    private mutating func update(_ buffer: UnsafeBufferPointer<UInt8>) {
        Self.tables.withUnsafeBufferPointer { t in
            var c = state
            var i = 0
            let count = buffer.count
            // Eight bytes a step (a rebuild checks a whole journal), then the rest one by one.
            let raw = UnsafeRawBufferPointer(buffer)
            while i + 8 <= count {
                c ^= UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                c =
                    t[7 * 256 + Int(c & 0xFF)] ^ t[6 * 256 + Int((c >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((c >> 16) & 0xFF)] ^ t[4 * 256 + Int((c >> 24) & 0xFF)]
                    ^ t[3 * 256 + Int((c >> 32) & 0xFF)] ^ t[2 * 256 + Int((c >> 40) & 0xFF)]
                    ^ t[256 + Int((c >> 48) & 0xFF)] ^ t[Int(c >> 56)]
                i += 8
            }
            while i < count {
                c = t[Int((c ^ UInt64(buffer[i])) & 0xFF)] ^ (c >> 8)
                i += 1
            }
            state = c
        }
    }

    /// The checksum of every byte added so far.
    var value: UInt64 { ~state }

    /// ``value`` as SQLite stores integers (the same 64 bits).
    var storedValue: Int64 { Int64(bitPattern: value) }
}
