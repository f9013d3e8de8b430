/// Writes bits most-significant first, with the Exp-Golomb codes of H.264 parameter sets.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var count = 0

    mutating func bits(_ value: UInt32, _ width: Int) {
        for shift in stride(from: width - 1, through: 0, by: -1) {
            if count % 8 == 0 { bytes.append(0) }
            bytes[bytes.count - 1] |= UInt8((value >> UInt32(shift)) & 1) << (7 - UInt8(count % 8))
            count += 1
        }
    }

    mutating func unsignedGolomb(_ value: UInt32) {
        let coded = value + 1
        let width = 32 - coded.leadingZeroBitCount
        bits(0, width - 1)
        bits(coded, width)
    }

    mutating func signedGolomb(_ value: Int32) {
        unsignedGolomb(value > 0 ? UInt32(2 * value - 1) : UInt32(-2 * value))
    }

    /// The stop bit and zero bits up to a byte boundary.
    mutating func finish() {
        bits(1, 1)
        while count % 8 != 0 { bits(0, 1) }
    }
}

/// H.264 sequence parameter sets for a picture size, as an encoder writes them.
enum SPSWriter {
    /// The SPS payload (after the NAL header byte) for `width`×`height`.
    static func h264(
        width: Int, height: Int, progressive: Bool, profile: UInt32, scalingLists: Bool = false
    ) -> [UInt8] {
        var w = BitWriter()
        w.bits(profile, 8)
        w.bits(0, 8)
        w.bits(40, 8)
        w.unsignedGolomb(0)
        if profile >= 100 {
            w.unsignedGolomb(1)  // 4:2:0
            w.unsignedGolomb(0)
            w.unsignedGolomb(0)
            w.bits(0, 1)
            w.bits(scalingLists ? 1 : 0, 1)
            if scalingLists {
                for list in 0..<8 {
                    w.bits(1, 1)
                    // Deltas of 4096 (≡ 0 mod 256): runs of 26 zero bits, so escaping is needed.
                    for _ in 0..<(list < 6 ? 16 : 64) { w.signedGolomb(4096) }
                }
            }
        }
        w.unsignedGolomb(0)
        w.unsignedGolomb(0)
        w.unsignedGolomb(0)
        w.unsignedGolomb(4)
        w.bits(0, 1)
        let fieldFactor = progressive ? 1 : 2
        let macroblocksWide = (width + 15) / 16
        let mapUnitsHigh = (height + 16 * fieldFactor - 1) / (16 * fieldFactor)
        w.unsignedGolomb(UInt32(macroblocksWide - 1))
        w.unsignedGolomb(UInt32(mapUnitsHigh - 1))
        w.bits(progressive ? 1 : 0, 1)
        if !progressive { w.bits(0, 1) }
        w.bits(1, 1)
        let cropRight = macroblocksWide * 16 - width
        let cropBottom = mapUnitsHigh * 16 * fieldFactor - height
        if cropRight > 0 || cropBottom > 0 {
            w.bits(1, 1)
            w.unsignedGolomb(0)
            w.unsignedGolomb(UInt32(cropRight / 2))
            w.unsignedGolomb(0)
            w.unsignedGolomb(UInt32(cropBottom / (2 * fieldFactor)))
        } else {
            w.bits(0, 1)
        }
        w.bits(0, 1)  // no VUI
        w.finish()
        return w.bytes
    }

    /// Inserts emulation-prevention bytes (`00 00 0x` → `00 00 03 0x` for x ≤ 3).
    static func escape(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var zeros = 0
        for byte in bytes {
            if zeros >= 2, byte <= 3 {
                result.append(3)
                zeros = 0
            }
            result.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return result
    }
}
