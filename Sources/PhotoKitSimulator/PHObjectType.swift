#if !canImport(ObjectiveC)
    /// The kinds of objects persistent change details describe (iOS 16, macOS 13).
    ///
    /// Raw values match Photos (`PHObjectTypeAsset = 1`, `…AssetCollection = 2`, `…CollectionList = 3`).
    public enum PHObjectType: Int, Sendable, Hashable {
        /// Assets (`PHAsset`).
        case asset = 1
        /// Asset collections: albums and moments (`PHAssetCollection`).
        case assetCollection = 2
        /// Collection lists: folders (`PHCollectionList`).
        case collectionList = 3
    }
#endif
