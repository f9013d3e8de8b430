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
        /// `.albumRegular`, or `.albumCloudShared` for a shared album the user joined.
        var subtype: PHAssetCollectionSubtype = .albumRegular
        /// Bumped whenever the title or the members change (change details).
        var revision = 0

        /// The public inspection value.
        var simulated: SimulatedAlbum {
            SimulatedAlbum(
                localIdentifier: localIdentifier, title: title, assetLocalIdentifiers: assetIdentifiers,
                creationIndex: creationIndex, creationDate: creationDate, isCreatedByApp: isCreatedByApp
            )
        }

        /// A fetched-object snapshot. `startDate`/`endDate` are the earliest and latest creation
        /// dates of the member assets, as Apple documents them for asset collections (`nil` for an
        /// empty album: an assumption, Apple does not say).
        func assetCollection(in assets: [AssetRecord]) -> PHAssetCollection {
            let members = Set(assetIdentifiers)
            let dates = assets.filter { members.contains($0.localIdentifier) }.compactMap(\.creationDate)
            return PHAssetCollection(
                localIdentifier: localIdentifier, title: title, type: .album, subtype: subtype,
                estimatedAssetCount: assetIdentifiers.count, startDate: dates.min(), endDate: dates.max(),
                revision: revision
            )
        }
    }
#endif
