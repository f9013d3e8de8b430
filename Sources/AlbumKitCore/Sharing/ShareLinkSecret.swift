#if canImport(CryptoKit)
    import CryptoKit
    import Foundation
#else
    internal import COpenSSL
#endif

/// The secrets of share links: random tokens, the hash the library keeps of each, and PINs kept as
/// PBKDF2-HMAC-SHA256 with a salt of their own (RFC 8018; libcrypto's HMAC on Linux, CryptoKit's
/// on Apple platforms), so that a copy of the library gives away neither.
///
/// ```swift
/// let token = ShareLinkSecret.randomHex(bytes: 32)
/// let kept = ShareLinkSecret.tokenHash(token)                  // what the library stores
/// let pin = ShareLinkSecret.PINHash(pin: "2468").text          // "pbkdf2-sha256$100000$…$…"
/// ```
package enum ShareLinkSecret {
    /// Wrong PINs a link takes before it is locked for good (a new link must be made).
    package static let pinAttemptLimit = 5
    /// PBKDF2 iterations of a new PIN hash.
    package static let iterations = 100_000

    /// `count` bytes from the system's random source, as lowercase hexadecimal.
    package static func randomHex(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return hex((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// The SHA-256 of a link's token, as the library keeps it.
    package static func tokenHash(_ token: String) -> String {
        Array(token.utf8).withUnsafeBytes { SHA256Hasher.hash($0) }
    }

    /// Whether `token` has the form of a link's token (64 lowercase hexadecimal digits).
    package static func isToken(_ token: Substring) -> Bool {
        token.utf8.count == 64 && token.utf8.allSatisfy(ShareLink.isHexDigit)
    }

    /// A PIN kept as PBKDF2-HMAC-SHA256: `pbkdf2-sha256$ITERATIONS$SALT$HASH` (salt 16 bytes, hash
    /// 32 bytes, both hexadecimal).
    package struct PINHash: Sendable, Equatable {
        package let iterations: Int
        package let salt: [UInt8]
        package let hash: [UInt8]

        /// A new hash of `pin` with a fresh salt.
        package init(pin: String) {
            var generator = SystemRandomNumberGenerator()
            let salt = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let rounds = ShareLinkSecret.iterations
            self.init(iterations: rounds, salt: salt, hash: ShareLinkSecret.pbkdf2(pin, salt, rounds))
        }

        private init(iterations: Int, salt: [UInt8], hash: [UInt8]) {
            self.iterations = iterations
            self.salt = salt
            self.hash = hash
        }

        /// The hash written as `text` by ``text``; `nil` when it is not one (another form, an
        /// iteration count outside 1 000…10 000 000).
        package init?(parsing text: String) {
            let parts = text.split(separator: "$", omittingEmptySubsequences: false)
            guard parts.count == 4, parts[0] == "pbkdf2-sha256", let iterations = Int(parts[1]),
                (1_000...10_000_000).contains(iterations), let salt = ShareLinkSecret.bytes(hex: parts[2]),
                salt.count >= 8, let hash = ShareLinkSecret.bytes(hex: parts[3]), hash.count == 32
            else { return nil }
            self.init(iterations: iterations, salt: salt, hash: hash)
        }

        package var text: String {
            "pbkdf2-sha256$\(iterations)$\(ShareLinkSecret.hex(salt))$\(ShareLinkSecret.hex(hash))"
        }

        /// Whether `pin` is the PIN hashed, compared in time that does not depend on where they differ.
        package func matches(_ pin: String) -> Bool {
            let given = ShareLinkSecret.pbkdf2(pin, salt, iterations)
            var difference: UInt8 = 0
            for (a, b) in zip(given, hash) { difference |= a ^ b }
            return difference == 0 && given.count == hash.count
        }
    }

    /// What a guest's cookie carries once the PIN was right: a hash of the token and of the PIN's
    /// kept hash, so every server of the library checks it without keeping anything, and a new PIN
    /// (a new link) makes it worthless.
    package static func pinProof(token: String, pinHash: String) -> String {
        tokenHash("albumkit-share-pin\n" + token + "\n" + pinHash)
    }

    /// PBKDF2-HMAC-SHA256 of `password` with `salt`, one 32-byte block (RFC 8018, section 5.2).
    package static func pbkdf2(_ password: String, _ salt: [UInt8], _ iterations: Int) -> [UInt8] {
        let key = Array(password.utf8)
        var block = hmac(key, salt + [0, 0, 0, 1])
        var result = block
        for _ in 1..<max(1, iterations) {
            block = hmac(key, block)
            for index in 0..<result.count { result[index] ^= block[index] }
        }
        return result
    }

    /// HMAC-SHA256 of `bytes` under `key`.
    static func hmac(_ key: [UInt8], _ bytes: [UInt8]) -> [UInt8] {
        #if canImport(CryptoKit)
            Array(HMAC<SHA256>.authenticationCode(for: bytes, using: SymmetricKey(data: key)))
        #else
            var out = [UInt8](repeating: 0, count: 32)
            guard albumkit_hmac_sha256(key, Int32(key.count), bytes, bytes.count, &out) == 0 else {
                fatalError("HMAC-SHA256 is unavailable: \(String(cString: albumkit_crypto_load_error()))")
            }
            return out
        #endif
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    static func bytes(hex text: Substring) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0, digits.allSatisfy(ShareLink.isHexDigit) else { return nil }
        func value(_ digit: UInt8) -> UInt8 { digit <= 57 ? digit - 48 : digit - 87 }
        return stride(from: 0, to: digits.count, by: 2).map { value(digits[$0]) << 4 | value(digits[$0 + 1]) }
    }
}
