#if !canImport(ObjectiveC)
    import Foundation

    /// A photo, video or Live Photo in the library: a snapshot taken when it was fetched.
    // @unchecked Sendable: restated from PHObject; only immutable `let` properties.
    public class PHAsset: PHObject, @unchecked Sendable {
        /// Image, video or audio.
        public let mediaType: PHAssetMediaType
        /// Subtypes, such as `.photoLive` for a Live Photo.
        public let mediaSubtypes: PHAssetMediaSubtype
        /// Width in pixels (0 when the simulator was not told).
        public let pixelWidth: Int
        /// Height in pixels (0 when the simulator was not told).
        public let pixelHeight: Int
        /// When the asset was originally created.
        public let creationDate: Date?
        /// When the asset was last modified.
        public let modificationDate: Date?
        /// Where the asset was captured.
        public let location: CLLocation?
        /// Duration in seconds (0 for photos).
        public let duration: TimeInterval
        /// Whether the user hid the asset.
        public let isHidden: Bool
        /// Whether the user marked the asset as a favorite.
        public let isFavorite: Bool
        /// The burst identifier (`nil`: the simulator has no bursts).
        public let burstIdentifier: String?
        /// Where the asset comes from (always the user's library here).
        public let sourceType: PHAssetSourceType

        init(record: AssetRecord) {
            self.mediaType = record.mediaType
            self.mediaSubtypes = record.mediaSubtypes
            self.pixelWidth = record.pixelWidth
            self.pixelHeight = record.pixelHeight
            self.creationDate = record.creationDate
            self.modificationDate = record.modificationDate
            self.location = record.location
            self.duration = record.duration
            self.isHidden = record.isHidden
            self.isFavorite = record.isFavorite
            self.burstIdentifier = nil
            self.sourceType = .typeUserLibrary
            super.init(localIdentifier: record.localIdentifier, revision: record.revision)
        }

        /// Whether the app may perform `editOperation` on the asset (always `true` here).
        @discardableResult
        public func canPerform(_ editOperation: PHAssetEditOperation) -> Bool { true }

        /// Fetches the assets of `assetCollection`, in the album's order.
        @discardableResult
        public class func fetchAssets(in assetCollection: PHAssetCollection, options: PHFetchOptions?) -> PHFetchResult<
            PHAsset
        > {
            PHPhotoLibrary.shared().fetchResult(scope: .collection(assetCollection.localIdentifier), options: options)
        }

        /// Fetches the assets with the given local identifiers, in the order given.
        ///
        /// Includes hidden assets by default.
        @discardableResult
        public class func fetchAssets(withLocalIdentifiers identifiers: [String], options: PHFetchOptions?)
            -> PHFetchResult<PHAsset>
        {
            PHPhotoLibrary.shared().fetchResult(scope: .identifiers(identifiers), options: options)
        }

        /// Fetches all assets of the user's library, oldest first.
        @discardableResult
        public class func fetchAssets(with options: PHFetchOptions?) -> PHFetchResult<PHAsset> {
            PHPhotoLibrary.shared().fetchResult(scope: .library(nil), options: options)
        }

        /// Fetches all assets of one media type, oldest first.
        @discardableResult
        public class func fetchAssets(with mediaType: PHAssetMediaType, options: PHFetchOptions?) -> PHFetchResult<
            PHAsset
        > {
            PHPhotoLibrary.shared().fetchResult(scope: .library(mediaType), options: options)
        }
    }

    extension PHAsset: PredicateSubject {
        static let supportedKeys: Set<String> = [
            "SELF", "localIdentifier", "creationDate", "modificationDate", "mediaType", "mediaSubtypes", "duration",
            "pixelWidth", "pixelHeight", "favorite", "isFavorite", "hidden", "isHidden", "burstIdentifier",
        ]

        func predicateValue(forKey key: String) -> PredicateValue {
            switch key {
            case "SELF", "localIdentifier": .string(localIdentifier)
            case "creationDate": creationDate.map(PredicateValue.date) ?? .null
            case "modificationDate": modificationDate.map(PredicateValue.date) ?? .null
            case "mediaType": .integer(mediaType.rawValue)
            case "mediaSubtypes": .integer(Int(mediaSubtypes.rawValue))
            case "duration": .double(duration)
            case "pixelWidth": .integer(pixelWidth)
            case "pixelHeight": .integer(pixelHeight)
            case "favorite", "isFavorite": .bool(isFavorite)
            case "hidden", "isHidden": .bool(isHidden)
            case "burstIdentifier": burstIdentifier.map(PredicateValue.string) ?? .null
            default: .null
            }
        }
    }
#endif
