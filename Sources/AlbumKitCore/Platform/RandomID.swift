/// Random identifiers in the UUID format (version 4, lowercase), from the system's random number
/// generator: Foundation's `UUID()` opens and reads `/dev/urandom` for each one on Linux, three
/// system calls per saved file.
///
/// ```swift
/// let id = RandomID.make()   // "3f2c41d0-7a1b-43e8-9d2e-5b7c0a1f9e64"
/// ```
package enum RandomID {
    /// A new random version-4 UUID string, lowercase.
    package static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        var high = generator.next() as UInt64
        var low = generator.next() as UInt64
        high = (high & ~0xF000) | 0x4000  // version 4
        low = (low & ~(0xC000 << 48)) | (0x8000 << 48)  // variant 10
        let hex = hex16(high) + hex16(low)
        let characters = Array(hex)
        return String(characters[0..<8]) + "-" + String(characters[8..<12]) + "-" + String(characters[12..<16])
            + "-" + String(characters[16..<20]) + "-" + String(characters[20..<32])
    }

    private static func hex16(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
