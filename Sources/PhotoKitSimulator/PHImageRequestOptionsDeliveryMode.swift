#if !canImport(ObjectiveC)
    /// How many results an image request delivers, and of what quality.
    ///
    /// Raw values match Photos.
    public enum PHImageRequestOptionsDeliveryMode: Int, Sendable, Hashable {
        /// An asynchronous request may deliver a degraded image first (its info says
        /// `PHImageResultIsDegradedKey`), then the one asked for; a synchronous one delivers once.
        case opportunistic = 0
        /// One result, as asked or better.
        case highQualityFormat = 1
        /// One result, possibly degraded.
        case fastFormat = 2
    }
#endif
