#if !canImport(ObjectiveC)
    /// The major kind of an asset collection. Raw values match Photos.
    public enum PHAssetCollectionType: Int, Sendable, Hashable {
        /// An album created in Photos or by an app.
        case album = 1
        /// A smart album whose contents Photos maintains.
        case smartAlbum = 2
        /// A moment (deprecated in iOS 13).
        case moment = 3
    }
#endif
