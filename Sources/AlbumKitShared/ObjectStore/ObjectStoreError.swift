#if os(Linux)
    import AlbumKitCore

    /// An S3 error response (or a store that stayed unreachable through every retry).
    struct ObjectStoreError: Error, Sendable, CustomStringConvertible {
        /// The HTTP status; 0 when no response came.
        let status: Int
        /// The S3 error code (`AccessDenied`, `BadDigest`, …), or `Unreachable`.
        let code: String
        let message: String
        let key: String

        init(status: Int, code: String, message: String, key: String) {
            self.status = status
            self.code = code
            self.message = message
            self.key = key
        }

        init(response: HTTPTransfer.Response, key: String) {
            let text = response.bodyText
            self.init(
                status: response.status, code: XMLScan.elements("Code", in: text).first ?? "HTTP\(response.status)",
                message: XMLScan.elements("Message", in: text).first ?? "", key: key)
        }

        var description: String { "\(code) (HTTP \(status)) for \(key)\(message.isEmpty ? "" : ": \(message)")" }

        /// Worth retrying: the server is restarting, overloaded or briefly unavailable.
        var isTransient: Bool {
            status >= 500 && status != 501 && status != 507 || status == 429 || code == "SlowDown"
                || code == "RequestTimeout"
        }

        /// Maps the failure of `what` onto AlbumKit's error codes.
        func albumError(_ what: String, store: String) -> AlbumError {
            switch (status, code) {
            case (0, "CertificateProblem"):
                return AlbumError(
                    .accessDenied,
                    "Cannot \(what): the TLS certificate of the object store \(store) was not accepted (\(message)).",
                    underlying: self)
            case (0, _):
                return AlbumError(
                    .libraryNotFound, "Cannot \(what): the object store \(store) cannot be reached (\(message)).",
                    underlying: self)
            case (403, _), (_, "AccessDenied"), (_, "SignatureDoesNotMatch"), (_, "InvalidAccessKeyId"):
                return AlbumError(
                    .accessDenied,
                    "Cannot \(what): the object store \(store) refused the credentials (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY).",
                    underlying: self)
            case (_, "BadDigest"), (_, "XAmzContentSHA256Mismatch"), (_, "InvalidDigest"):
                // The bytes sent are not those hashed: the file changed after it was read (a file
                // that goes up in one PUT is read where it is), or the network damaged them.
                return AlbumError(
                    .fileUnreadable,
                    "Cannot \(what): the object store \(store) received bytes whose checksum is not the one taken when the file was read; the file changed while it was being saved. Save it again.",
                    underlying: self)
            case (_, "NoSuchBucket"):
                return AlbumError(
                    .libraryNotFound, "Cannot \(what): the bucket of \(store) does not exist.", underlying: self)
            case (507, _), (_, "EntityTooLarge"), (_, "QuotaExceeded"), (_, "XMinioStorageFull"):
                return AlbumError(
                    .notEnoughSpace, "Cannot \(what): the object store \(store) is out of space.", underlying: self)
            case (503, _), (429, _), (_, "SlowDown"):
                return AlbumError(
                    .libraryBusy, "Cannot \(what): the object store \(store) stayed busy too long; try again.",
                    underlying: self)
            default:
                return AlbumError(.ioFailure, "Cannot \(what) in \(store): \(description).", underlying: self)
            }
        }
    }

    /// Pulls element texts out of the small, flat XML documents S3 answers with.
    enum XMLScan {
        /// The text of every `<name>…</name>` in `xml`, entities decoded.
        static func elements(_ name: String, in xml: String) -> [String] {
            var out: [String] = []
            var rest = xml[...]
            let open = "<\(name)>"
            let close = "</\(name)>"
            while let start = rest.range(of: open), let end = rest[start.upperBound...].range(of: close) {
                out.append(decode(String(rest[start.upperBound..<end.lowerBound])))
                rest = rest[end.upperBound...]
            }
            return out
        }

        private static func decode(_ text: String) -> String {
            guard text.contains("&") else { return text }
            return text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
                .replacingOccurrences(of: "&amp;", with: "&")
        }
    }
#endif
