#if !canImport(ObjectiveC)
    /// The general type of an asset. Raw values match Photos.
    public enum PHAssetMediaType: Int, Sendable, Hashable {
        /// Unknown type.
        case unknown = 0
        /// A photo.
        case image = 1
        /// A video.
        case video = 2
        /// Audio.
        case audio = 3
    }
#endif
