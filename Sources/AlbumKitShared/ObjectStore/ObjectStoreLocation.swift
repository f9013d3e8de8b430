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

        /// `endpoint http://…, bucket b, prefix "p/", region r, path-style addressing`, for messages.
        var summary: String {
            "endpoint \(endpoint), bucket \(bucket), prefix \"\(prefix)\", region \(region), \(addressing.rawValue)-style addressing"
        }

        /// Checks that the endpoint is an http(s) URL and the bucket a valid S3 bucket name.
        func validated() throws -> ObjectStoreLocation {
            guard let url = URL(string: endpoint), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                throw AlbumError(
                    .libraryNotFound, "The object store endpoint \"\(endpoint)\" is not an http:// or https:// URL.")
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
