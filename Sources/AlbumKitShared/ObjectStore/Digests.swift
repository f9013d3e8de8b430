#if os(Linux)
    import AlbumKitCore
    import COpenSSL

    /// The MD5 of a range of a file, for a multipart part's `Content-MD5`.
    enum Digests {
        static func bytes(fromHex hex: String) -> [UInt8] {
            var out: [UInt8] = []
            var high: UInt8?
            for c in hex.utf8 {
                let v: UInt8 = c >= 97 ? c - 87 : (c >= 65 ? c - 55 : c - 48)
                if let h = high {
                    out.append(h << 4 | v)
                    high = nil
                } else {
                    high = v
                }
            }
            return out
        }

        /// The MD5 of `length` bytes of `file` from `offset`.
        static func md5(of file: FileSystem.Descriptor, offset: UInt64, length: UInt64) throws -> [UInt8] {
            guard let context = albumkit_digest_new(ALBUMKIT_DIGEST_MD5) else {
                throw ObjectStoreError(
                    status: 0, code: "NoDigest", message: String(cString: albumkit_crypto_load_error()),
                    key: file.path)
            }
            defer { albumkit_digest_free(context) }
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
            defer { buffer.deallocate() }
            var done: UInt64 = 0
            while done < length {
                let want = Int(min(UInt64(buffer.count), length - done))
                let n = try FileSystem.read(
                    file, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]), at: offset + done)
                guard n > 0 else { throw SystemError("read", path: file.path, errno: 5) }
                albumkit_digest_update(context, buffer.baseAddress, n)
                done += UInt64(n)
            }
            var out = [UInt8](repeating: 0, count: 64)
            let count = albumkit_digest_final(context, &out)
            return Array(out.prefix(Int(count)))
        }
    }
#endif
