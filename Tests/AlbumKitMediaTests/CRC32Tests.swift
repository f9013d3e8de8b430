import Testing

@testable import AlbumKitMedia

/// `CRC32` (eight bytes a step) gives the CRC-32 of ISO 3309 whatever the lengths and however the
/// bytes are split between updates.
@Suite struct CRC32Tests {
    /// The CRC-32 bit by bit, as the polynomial defines it.
    static func reference(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    @Test func theCheckValueOfTheStandard() {
        var crc = CRC32()
        crc.update(Array("123456789".utf8))
        #expect(crc.value == 0xCBF4_3926)
    }

    @Test func everyLengthAndSplitMatchesTheBitwiseCRC() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<80 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            for split in Set([0, length / 3, length / 2, length]) {
                var crc = CRC32()
                crc.update(bytes[..<split])
                crc.update(bytes[split...])
                #expect(crc.value == Self.reference(bytes), "length \(length), split at \(split)")
            }
        }
    }
}
