#if !canImport(ObjectiveC)
    /// Subtypes of an asset's media type. Raw values match Photos.
    public struct PHAssetMediaSubtype: OptionSet, Sendable, Hashable {
        /// The raw bit mask.
        public let rawValue: UInt
        /// Creates a subtype set from a raw bit mask.
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// A panorama.
        public static let photoPanorama = PHAssetMediaSubtype(rawValue: 1 << 0)
        /// A high-dynamic-range photo.
        public static let photoHDR = PHAssetMediaSubtype(rawValue: 1 << 1)
        /// A screenshot.
        public static let photoScreenshot = PHAssetMediaSubtype(rawValue: 1 << 2)
        /// A Live Photo (a photo with a paired video).
        public static let photoLive = PHAssetMediaSubtype(rawValue: 1 << 3)
        /// A photo with depth data.
        public static let photoDepthEffect = PHAssetMediaSubtype(rawValue: 1 << 4)
        /// An animated image.
        public static let photoAnimation = PHAssetMediaSubtype(rawValue: 1 << 6)
        /// Spatial media.
        public static let spatialMedia = PHAssetMediaSubtype(rawValue: 1 << 10)
        /// A streamed video.
        public static let videoStreamed = PHAssetMediaSubtype(rawValue: 1 << 16)
        /// A high-frame-rate video.
        public static let videoHighFrameRate = PHAssetMediaSubtype(rawValue: 1 << 17)
        /// A time-lapse video.
        public static let videoTimelapse = PHAssetMediaSubtype(rawValue: 1 << 18)
        /// A screen recording.
        public static let videoScreenRecording = PHAssetMediaSubtype(rawValue: 1 << 19)
        /// A Cinematic video.
        public static let videoCinematic = PHAssetMediaSubtype(rawValue: 1 << 21)
    }
#endif
