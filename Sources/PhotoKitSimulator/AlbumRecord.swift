#if !canImport(ObjectiveC)
    import Foundation

    /// A user album as stored in the simulated library.
    struct AlbumRecord: Sendable {
        let localIdentifier: String
        var title: String
        var assetIdentifiers: [String]
        let creationIndex: Int
        let creationDate: Date
        let isCreatedByApp: Bool

        /// The public inspection value.
        var simulated: SimulatedAlbum {
            SimulatedAlbum(
                localIdentifier: localIdentifier, title: title, assetLocalIdentifiers: assetIdentifiers,
                creationIndex: creationIndex, creationDate: creationDate, isCreatedByApp: isCreatedByApp
            )
        }

        /// A fetched-object snapshot.
        var assetCollection: PHAssetCollection {
            PHAssetCollection(
                localIdentifier: localIdentifier, title: title, type: .album, subtype: .albumRegular,
                estimatedAssetCount: assetIdentifiers.count
            )
        }
    }
#endif
