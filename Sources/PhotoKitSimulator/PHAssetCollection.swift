#if !canImport(ObjectiveC)
    import Foundation

    /// An album or smart album: a snapshot of the collection when it was fetched.
    // @unchecked Sendable: restated from PHObject; only immutable `let` properties.
    public class PHAssetCollection: PHCollection, @unchecked Sendable {
        /// Album or smart album.
        public let assetCollectionType: PHAssetCollectionType
        /// The collection's subtype.
        public let assetCollectionSubtype: PHAssetCollectionSubtype
        /// The number of assets when fetched, or `NSNotFound` when Photos cannot tell cheaply.
        public let estimatedAssetCount: Int
        /// The earliest creation date of the assets in the collection (`nil` when it is empty).
        public let startDate: Date?
        /// The latest creation date of the assets in the collection (`nil` when it is empty).
        public let endDate: Date?
        /// A location for the collection (moments only; `nil` here).
        public let approximateLocation: CLLocation?
        /// Place names for the collection (moments only; empty here).
        public let localizedLocationNames: [String]

        init(
            localIdentifier: String, title: String?, type: PHAssetCollectionType,
            subtype: PHAssetCollectionSubtype, estimatedAssetCount: Int, startDate: Date? = nil, endDate: Date? = nil,
            revision: Int = 0
        ) {
            self.assetCollectionType = type
            self.assetCollectionSubtype = subtype
            self.estimatedAssetCount = estimatedAssetCount
            self.startDate = startDate
            self.endDate = endDate
            self.approximateLocation = nil
            self.localizedLocationNames = []
            super.init(localIdentifier: localIdentifier, localizedTitle: title, revision: revision)
        }

        /// Regular albums support every edit; smart albums and shared albums none.
        ///
        /// Assumption: Apple documents `canPerform(_:)` and that change requests raise an exception
        /// for an operation the collection does not allow, not which collections allow which
        /// operations; "regular albums everything, the rest nothing" is the simulator's model.
        @discardableResult
        public override func canPerform(_ anOperation: PHCollectionEditOperation) -> Bool {
            assetCollectionType == .album && assetCollectionSubtype == .albumRegular
        }

        /// Fetches the collections with the given local identifiers, in the order given.
        ///
        /// Returns an empty result when none match or when the app cannot read collections.
        @discardableResult
        public class func fetchAssetCollections(
            withLocalIdentifiers identifiers: [String], options: PHFetchOptions?
        ) -> PHFetchResult<PHAssetCollection> {
            PHPhotoLibrary.shared().collectionFetchResult(
                type: nil, subtype: .any, identifiers: identifiers, containing: nil, options: options
            )
        }

        /// Fetches the collections of one type and subtype (`.any` matches every subtype).
        ///
        /// The simulated library has user albums (`.album`, `.albumRegular`), shared albums the
        /// user joined (`.album`, `.albumCloudShared`) and one smart album, Recents (`.smartAlbum`,
        /// `.smartAlbumUserLibrary`). Apple documents no order: without sort descriptors the
        /// order is shuffled on every fetch (see ``PhotoKitSimulation/albumFetchOrder``).
        @discardableResult
        public class func fetchAssetCollections(
            with type: PHAssetCollectionType, subtype: PHAssetCollectionSubtype, options: PHFetchOptions?
        ) -> PHFetchResult<PHAssetCollection> {
            PHPhotoLibrary.shared().collectionFetchResult(
                type: type, subtype: subtype, identifiers: nil, containing: nil, options: options
            )
        }

        /// Fetches the albums of `type` that contain `asset`.
        @discardableResult
        public class func fetchAssetCollectionsContaining(
            _ asset: PHAsset, with type: PHAssetCollectionType, options: PHFetchOptions?
        ) -> PHFetchResult<PHAssetCollection> {
            PHPhotoLibrary.shared().collectionFetchResult(
                type: type, subtype: .any, identifiers: nil, containing: asset.localIdentifier, options: options
            )
        }
    }

    extension PHAssetCollection: PredicateSubject {
        static let supportedKeys: Set<String> = [
            "SELF", "localIdentifier", "localizedTitle", "title", "startDate", "endDate", "estimatedAssetCount",
        ]

        func predicateValue(forKey key: String) -> PredicateValue {
            switch key {
            case "SELF", "localIdentifier": .string(localIdentifier)
            case "localizedTitle", "title": localizedTitle.map(PredicateValue.string) ?? .null
            case "startDate": startDate.map(PredicateValue.date) ?? .null
            case "endDate": endDate.map(PredicateValue.date) ?? .null
            case "estimatedAssetCount": .integer(estimatedAssetCount)
            default: .null
            }
        }
    }
#endif
