#if os(Linux)
    import AlbumKitCore
    import COpenSSL

    /// A SHA-256 fed piece by piece, as a download arrives. Used by one transfer at a time.
    final class StreamingSHA256 {
        private var context: OpaquePointer?

        init() throws {
            guard let context = albumkit_digest_new(ALBUMKIT_DIGEST_SHA256) else {
                throw ObjectStoreError(
                    status: 0, code: "NoDigest", message: String(cString: albumkit_crypto_load_error()), key: "")
            }
            self.context = context
        }

        deinit { albumkit_digest_free(context) }

        func update(_ bytes: UnsafeRawBufferPointer) {
            albumkit_digest_update(context, bytes.baseAddress, bytes.count)
        }

        /// Starts over (a retried download).
        func reset() {
            albumkit_digest_free(context)
            context = albumkit_digest_new(ALBUMKIT_DIGEST_SHA256)
        }

        /// The digest of everything so far, hex; the hasher starts over.
        func finish() -> String {
            var out = [UInt8](repeating: 0, count: 64)
            let count = albumkit_digest_final(context, &out)
            reset()
            return SignatureV4.hex(Array(out.prefix(Int(count))))
        }
    }
#endif
