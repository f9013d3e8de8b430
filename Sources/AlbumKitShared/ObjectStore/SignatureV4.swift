#if os(Linux)
    import AlbumKitCore
    import COpenSSL
    import Foundation

    /// AWS Signature Version 4 for S3 requests, over OpenSSL's HMAC-SHA256.
    ///
    /// Callers pass the SHA-256 of the body they send (`x-amz-content-sha256`), or
    /// ``unsignedPayload`` for multipart parts, whose bytes the store checks by their `Content-MD5`.
    struct SignatureV4: Sendable {
        let accessKey: String
        let secretKey: String
        let sessionToken: String?
        let region: String
        var service = "s3"

        /// The payload hash of a body that is not hashed for the signature (a multipart part: its
        /// `Content-MD5` guards its bytes, so they are read and hashed once instead of twice).
        static let unsignedPayload = "UNSIGNED-PAYLOAD"

        /// The SHA-256 of an empty body, hex.
        static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

        /// The headers to add to a request (`authorization`, `x-amz-date`, `x-amz-content-sha256`, and
        /// the session token when there is one). `path` is already URI-encoded; `headers` are the other
        /// headers that will be sent, all of which are signed.
        func sign(
            method: String, host: String, path: String, query: [(String, String)], headers: [String: String],
            payloadHash: String, date: Date = Date()
        ) -> [String: String] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
            let amzDate = formatter.string(from: date)
            let day = String(amzDate.prefix(8))

            var signed = [String: String]()
            for (name, value) in headers { signed[name.lowercased()] = value.trimmingCharacters(in: .whitespaces) }
            signed["host"] = host
            signed["x-amz-date"] = amzDate
            signed["x-amz-content-sha256"] = payloadHash
            if let sessionToken { signed["x-amz-security-token"] = sessionToken }
            let names = signed.keys.sorted()
            let canonicalHeaders = names.map { "\($0):\(signed[$0]!)\n" }.joined()
            let signedHeaders = names.joined(separator: ";")
            let pairs: [String] = query.map { Self.encode($0.0) + "=" + Self.encode($0.1) }
            let canonicalQuery = pairs.sorted().joined(separator: "&")
            let canonicalRequest = [method, path, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash]
                .joined(separator: "\n")
            let scope = "\(day)/\(region)/\(service)/aws4_request"
            let stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, Self.sha256Hex(Array(canonicalRequest.utf8))]
                .joined(separator: "\n")
            var key = Self.hmac(Array("AWS4\(secretKey)".utf8), day)
            key = Self.hmac(key, region)
            key = Self.hmac(key, service)
            key = Self.hmac(key, "aws4_request")
            let signature = Self.hex(Self.hmac(key, stringToSign))

            var out = signed
            out.removeValue(forKey: "host")
            for name in headers.keys { out.removeValue(forKey: name.lowercased()) }
            out["authorization"] =
                "AWS4-HMAC-SHA256 Credential=\(accessKey)/\(scope), SignedHeaders=\(signedHeaders), Signature=\(signature)"
            return out
        }

        /// URI-encodes everything but the unreserved characters (`A-Z a-z 0-9 - _ . ~`); with
        /// `keepSlash`, `/` too (for object key paths).
        static func encode(_ text: String, keepSlash: Bool = false) -> String {
            var out = ""
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                    UInt8(ascii: "~"):
                    out.unicodeScalars.append(Unicode.Scalar(byte))
                case UInt8(ascii: "/") where keepSlash:
                    out.append("/")
                default:
                    out += String(format: "%%%02X", byte)
                }
            }
            return out
        }

        static func hmac(_ key: [UInt8], _ message: String) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: 32)
            let bytes = Array(message.utf8)
            _ = albumkit_hmac_sha256(key, Int32(key.count), bytes, bytes.count, &out)
            return out
        }

        static func sha256Hex(_ bytes: [UInt8]) -> String {
            bytes.withUnsafeBytes { SHA256Hasher.hash($0) }
        }

        static func hex(_ bytes: [UInt8]) -> String {
            bytes.map { String(format: "%02x", $0) }.joined()
        }
    }
#endif
