#if os(Linux)
    /// Where an S3 request names the bucket.
    ///
    /// ```swift
    /// let aws = ObjectStoreLocation(
    ///     endpoint: "https://s3.eu-west-1.amazonaws.com", bucket: "family-photos", region: "eu-west-1",
    ///     addressing: .virtual)
    /// ```
    public enum ObjectStoreAddressing: String, Sendable, Hashable, Codable, CaseIterable {
        /// `https://host/bucket/key`: MinIO, Ceph RGW, SeaweedFS, Garage, B2 and R2 all take it.
        case path
        /// `https://bucket.host/key`: what AWS recommends (it deprecated path-style requests for new buckets).
        case virtual
    }
#endif
