#if !canImport(ObjectiveC)
    import Foundation

    /// An asset as stored in the simulated library.
    struct AssetRecord: Sendable {
        let localIdentifier: String
        var mediaType: PHAssetMediaType
        var mediaSubtypes: PHAssetMediaSubtype
        var pixelWidth = 0
        var pixelHeight = 0
        var creationDate: Date?
        var modificationDate: Date?
        var location: CLLocation?
        var duration: TimeInterval = 0
        var isHidden = false
        var isFavorite = false
        var resources: [SimulatedResource] = []
        let isCreatedByApp: Bool
        var isInLimitedSelection: Bool
        /// Bumped whenever a property changes (change details).
        var revision = 0

        /// The public inspection value.
        var simulated: SimulatedAsset {
            SimulatedAsset(
                localIdentifier: localIdentifier, mediaType: mediaType, mediaSubtypes: mediaSubtypes,
                creationDate: creationDate, location: location, isHidden: isHidden, isFavorite: isFavorite,
                resources: resources, isCreatedByApp: isCreatedByApp, isInLimitedSelection: isInLimitedSelection
            )
        }
    }
#endif
