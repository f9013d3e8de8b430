#if !canImport(ObjectiveC)
    /// Edits an app can make to an asset. Raw values match Photos.
    public enum PHAssetEditOperation: Int, Sendable, Hashable {
        /// Delete the asset.
        case delete = 1
        /// Edit the asset's content.
        case content = 2
        /// Edit the asset's metadata.
        case properties = 3
    }
#endif
