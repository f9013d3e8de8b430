#if !canImport(ObjectiveC)
    /// The order of album fetches without sort descriptors.
    ///
    /// Apple documents no order for `fetchAssetCollections(with:subtype:options:)`, so by default
    /// the simulator shuffles every such fetch: code that takes "the first album" as "the oldest"
    /// fails its tests.
    public enum AlbumFetchOrder: Sendable, Hashable {
        /// A new random order on every fetch (the default).
        case shuffled
        /// Creation order, for tests that look at something else.
        case creation
    }
#endif
