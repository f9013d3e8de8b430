#if !canImport(ObjectiveC)
    import Foundation

    /// An asset in the simulated library, for inspection by tests.
    public struct SimulatedAsset: Sendable {
        /// The asset's local identifier.
        public let localIdentifier: String
        /// Image, video or audio.
        public let mediaType: PHAssetMediaType
        /// Subtypes, such as `.photoLive`.
        public let mediaSubtypes: PHAssetMediaSubtype
        /// The creation date (from the change request, else the commit time).
        public let creationDate: Date?
        /// The location set by the change request.
        public let location: CLLocation?
        /// Whether the asset is hidden.
        public let isHidden: Bool
        /// Whether the asset is a favorite.
        public let isFavorite: Bool
        /// The resources, in the order they were added.
        public let resources: [SimulatedResource]
        /// Whether an app created the asset through a change request (as opposed to the user).
        public let isCreatedByApp: Bool
        /// Whether a `.limited` app can see the asset (it created it, or the user selected it).
        public let isInLimitedSelection: Bool
    }
#endif
