#if !canImport(ObjectiveC)
    /// Where an asset comes from. Raw values match Photos.
    public struct PHAssetSourceType: OptionSet, Sendable, Hashable {
        /// The raw bit mask.
        public let rawValue: UInt
        /// Creates a source type set from a raw bit mask.
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// The user's own library.
        public static let typeUserLibrary = PHAssetSourceType(rawValue: 1 << 0)
        /// An iCloud Shared Album.
        public static let typeCloudShared = PHAssetSourceType(rawValue: 1 << 1)
        /// Synced from iTunes / Finder.
        public static let typeiTunesSynced = PHAssetSourceType(rawValue: 1 << 2)
    }
#endif
