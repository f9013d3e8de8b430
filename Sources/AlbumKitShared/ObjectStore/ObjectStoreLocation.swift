#if os(Linux)
    import AlbumKitCore
    import Foundation

    /// Where a shared library keeps its originals: an S3-compatible endpoint, a bucket and a key prefix.
    /// Recorded in the library's database by `album init`; the credentials never are.
    ///
    /// ```swift
    /// let store = ObjectStoreLocation(endpoint: "http://127.0.0.1:8333", bucket: "photos", prefix: "family/")
    /// ```
    public struct ObjectStoreLocation: Sendable, Hashable, Codable {
        /// `http://host:port` or `https://host`.
        public var endpoint: String
        /// The bucket.
        public var bucket: String
        /// Prepended to every key (`""`, or ending in `/`).
        public var prefix: String
        /// The signing region (`us-east-1` for most self-hosted servers; B2 and R2 name their own).
        public var region: String
        /// How the bucket is named in requests: in the path (`https://host/bucket/key`, the default,
        /// which every S3-compatible server accepts) or in the host name (`https://bucket.host/key`).
        public var addressing: ObjectStoreAddressing

        /// Describes a store.
        ///
        /// ```swift
        /// let store = ObjectStoreLocation(endpoint: "https://s3.example.net", bucket: "photos")
        /// ```
        public init(
            endpoint: String, bucket: String, prefix: String = "", region: String = "us-east-1",
            addressing: ObjectStoreAddressing = .path
        ) {
            self.endpoint = endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint
            self.bucket = bucket
            self.prefix = prefix.isEmpty || prefix.hasSuffix("/") ? prefix : prefix + "/"
            self.region = region
            self.addressing = addressing
        }

        /// Where the user information of `endpoint` (`user:password@`) begins, if it has one.
        static func credentialsStart(in endpoint: String) -> String.Index? {
            guard let scheme = endpoint.range(of: "://") else { return nil }
            let authority = endpoint[scheme.upperBound...].prefix { !"/?#".contains($0) }
            return authority.contains("@") ? scheme.upperBound : nil
        }

        /// `endpoint` without any user information: what is recorded, used and printed.
        ///
        /// ```swift
        /// ObjectStoreLocation.withoutCredentials("https://key:secret@s3.example.net")  // "https://s3.example.net"
        /// ```
        static func withoutCredentials(_ endpoint: String) -> String {
            guard let start = credentialsStart(in: endpoint) else { return endpoint }
            let authority = endpoint[start...].prefix { !"/?#".contains($0) }
            let at = authority.lastIndex(of: "@")!
            return String(endpoint[..<start]) + String(endpoint[endpoint.index(after: at)...])
        }

        /// `endpoint http://…, bucket b, prefix "p/", region r, path-style addressing`, for messages.
        var summary: String {
            "endpoint \(endpoint), bucket \(bucket), prefix \"\(prefix)\", region \(region), \(addressing.rawValue)-style addressing"
        }

        /// Checks that the endpoint is an http(s) URL without credentials, query or fragment, and the
        /// bucket a valid S3 bucket name.
        func validated() throws -> ObjectStoreLocation {
            if Self.credentialsStart(in: endpoint) != nil {
                // The endpoint is recorded in the library, where every member (readers too) can
                // select it: a secret must never go there, nor into the messages that name it.
                throw AlbumError(
                    .invalidArgument,
                    "The object store endpoint \"\(Self.withoutCredentials(endpoint))\" was given with a user name or password in it (before the @); nothing was recorded. The endpoint is stored in the library, readable by every member: give it as http(s)://HOST[:PORT], and put the access key in the credentials file (~/.aws/credentials) or in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY. A key that was typed into a shared place may be worth replacing."
                )
            }
            guard let url = URL(string: endpoint), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                throw AlbumError(
                    .libraryNotFound, "The object store endpoint \"\(endpoint)\" is not an http:// or https:// URL.")
            }
            guard url.query == nil, url.fragment == nil else {
                throw AlbumError(
                    .invalidArgument,
                    "The object store endpoint \"\(url.scheme!)://\(url.host!)\" was given with a query or fragment (after ? or #); give it as http(s)://HOST[:PORT] and the credentials in the credentials file. Nothing was recorded."
                )
            }
            let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789.-")
            guard (3...63).contains(bucket.count), bucket.allSatisfy(allowed.contains) else {
                throw AlbumError(
                    .libraryNotFound,
                    "\"\(bucket)\" is not a valid bucket name (3–63 lowercase letters, digits, dots and hyphens).")
            }
            guard !region.isEmpty, region.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                throw AlbumError(.invalidArgument, "\"\(region)\" is not a region name (like us-east-1 or auto).")
            }
            if addressing == .virtual, bucket.contains(".") {
                throw AlbumError(
                    .invalidArgument,
                    "The bucket \"\(bucket)\" has dots in its name, which break TLS with virtual-hosted addressing; use path-style addressing."
                )
            }
            return self
        }
    }
#endif
