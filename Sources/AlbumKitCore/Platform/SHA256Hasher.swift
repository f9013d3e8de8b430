#if canImport(CryptoKit)
    import CryptoKit
#else
    internal import COpenSSL
#endif

/// Incremental SHA-256: CryptoKit on Apple platforms; on Linux the processor's SHA instructions
/// where it has them (x86-64 SHA extensions: no library to load, 1.5–2 ms and ~128 page faults
/// less per process), else OpenSSL's libcrypto.
package struct SHA256Hasher: ~Copyable {
    #if canImport(CryptoKit)
        private var hasher = CryptoKit.SHA256()
        package init() {}
        package mutating func update(_ bytes: UnsafeRawBufferPointer) { hasher.update(bufferPointer: bytes) }
        package consuming func finalize() -> String { Self.hex(Array(hasher.finalize())) }
    #else
        private let context: OpaquePointer

        /// A hasher on the processor's SHA instructions where it has them, else on libcrypto;
        /// `usingProcessor: false` (tests) always uses libcrypto.
        package init(usingProcessor: Bool = true) {
            guard let context = albumkit_digest_new_using(ALBUMKIT_DIGEST_SHA256, usingProcessor ? 1 : 0) else {
                fatalError("SHA-256 is unavailable: \(String(cString: albumkit_crypto_load_error()))")
            }
            self.context = context
        }

        deinit { albumkit_digest_free(context) }

        package mutating func update(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, bytes.count > 0 else { return }
            albumkit_digest_update(context, base, bytes.count)
        }

        package consuming func finalize() -> String {
            var digest = [UInt8](repeating: 0, count: 64)
            let length = albumkit_digest_final(context, &digest)
            return Self.hex(Array(digest.prefix(Int(length))))
        }
    #endif

    /// Fails with a clear error where SHA-256 cannot be computed (Linux on a processor without SHA
    /// instructions and without OpenSSL's libcrypto), before anything that hashes starts; a no-op
    /// on Apple platforms.
    ///
    /// ```swift
    /// try SHA256Hasher.requireAvailable(to: "save into \(root.path)")
    /// ```
    package static func requireAvailable(to what: String) throws(AlbumError) {
        #if !canImport(CryptoKit)
            guard albumkit_sha256_ready() == 0 else { throw libraryMissing(to: what) }
        #endif
    }

    /// Like ``requireAvailable(to:)``, for work that needs OpenSSL's libcrypto itself on Linux (the
    /// shared library's request signatures: HMAC, MD5), whatever the processor.
    package static func requireLibrary(to what: String) throws(AlbumError) {
        #if !canImport(CryptoKit)
            guard albumkit_crypto_load() == 0 else { throw libraryMissing(to: what) }
        #endif
    }

    #if !canImport(CryptoKit)
        private static func libraryMissing(to what: String) -> AlbumError {
            let reason = String(cString: albumkit_crypto_load_error())
            return AlbumError(.notSupported, "Cannot \(what): \(reason). Nothing was changed.")
        }

        /// Whether hashers run on the processor's SHA instructions (else on libcrypto).
        package static var runsOnProcessor: Bool { albumkit_sha256_cpu_available() != 0 }
    #endif

    /// The SHA-256 of `bytes`, as lowercase hex.
    package static func hash(_ bytes: UnsafeRawBufferPointer) -> String {
        var hasher = SHA256Hasher()
        hasher.update(bytes)
        return hasher.finalize()
    }

    private static func hex(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
