/// Reads bits most-significant first, and the Exp-Golomb codes of H.264/HEVC parameter sets.
///
/// Reading past the end yields `nil` rather than trapping, so a damaged header simply ends the parse.
struct BitReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The next `count` bits (0–32) as an unsigned number.
    mutating func bits(_ count: Int) -> UInt32? {
        guard count >= 0, count <= 32, position + count <= bytes.count * 8 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<count {
            let bit = bytes[position >> 3] >> (7 - UInt8(position & 7)) & 1
            value = value << 1 | UInt32(bit)
            position += 1
        }
        return value
    }

    /// Skips `count` bits; `nil` when they run past the end.
    mutating func skip(_ count: Int) -> Void? {
        guard count >= 0, position + count <= bytes.count * 8 else { return nil }
        position += count
        return ()
    }

    /// One bit as a flag.
    mutating func flag() -> Bool? { bits(1).map { $0 == 1 } }

    /// An unsigned Exp-Golomb code, `ue(v)` (at most 31 leading zeros).
    mutating func unsignedGolomb() -> UInt32? {
        var zeros = 0
        while true {
            guard let bit = bits(1) else { return nil }
            if bit == 1 { break }
            zeros += 1
            if zeros > 31 { return nil }
        }
        guard let rest = bits(zeros) else { return nil }
        return UInt32((UInt64(1) << zeros) - 1 + UInt64(rest))
    }

    /// A signed Exp-Golomb code, `se(v)`.
    mutating func signedGolomb() -> Int32? {
        guard let code = unsignedGolomb() else { return nil }
        let magnitude = Int32((code + 1) / 2)
        return code & 1 == 1 ? magnitude : -magnitude
    }
}
