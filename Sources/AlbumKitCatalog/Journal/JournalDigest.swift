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
    private static let table: [UInt64] = (0..<256).map { n in
        var c = UInt64(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xC96C_5795_D787_0F42 ^ (c >> 1) : c >> 1 }
        return c
    }

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
        Self.table.withUnsafeBufferPointer { table in
            var c = state
            for byte in buffer { c = table[Int((c ^ UInt64(byte)) & 0xFF)] ^ (c >> 8) }
            state = c
        }
    }

    /// The checksum of every byte added so far.
    var value: UInt64 { ~state }

    /// ``value`` as SQLite stores integers (the same 64 bits).
    var storedValue: Int64 { Int64(bitPattern: value) }
}
