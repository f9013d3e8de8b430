#if !canImport(ObjectiveC)
    import Foundation

    /// A request to create, delete or modify an asset, inside a change block.
    public class PHAssetChangeRequest: PHChangeRequest {
        /// The asset this request creates or modifies.
        let assetIdentifier: String
        /// Whether this request creates the asset.
        let isCreation: Bool
        private let placeholder: PHObjectPlaceholder?
        private var properties: ChangeContents.AssetProperties
        private let original: (creationDate: Date?, location: CLLocation?, isFavorite: Bool, isHidden: Bool)

        required init(transaction: ChangeTransaction, assetIdentifier: String, asset: PHAsset?) {
            self.assetIdentifier = assetIdentifier
            self.isCreation = asset == nil
            self.placeholder = asset == nil ? PHObjectPlaceholder(localIdentifier: assetIdentifier) : nil
            self.properties = ChangeContents.AssetProperties()
            self.original = (asset?.creationDate, asset?.location, asset?.isFavorite ?? false, asset?.isHidden ?? false)
            super.init(transaction: transaction)
        }

        /// A request to create an asset from the image file at `fileURL`.
        ///
        /// Returns `nil` when `fileURL` is not a file URL. The file is read and validated at
        /// commit; a missing, unreadable or empty file fails the block with `.invalidResource`.
        @discardableResult
        public class func creationRequestForAssetFromImage(atFileURL fileURL: URL) -> Self? {
            creationRequest(for: .photo, fileURL: fileURL)
        }

        /// A request to create an asset from the video file at `fileURL`.
        ///
        /// Returns `nil` when `fileURL` is not a file URL; the file is validated at commit.
        @discardableResult
        public class func creationRequestForAssetFromVideo(atFileURL fileURL: URL) -> Self? {
            creationRequest(for: .video, fileURL: fileURL)
        }

        private class func creationRequest(for type: PHAssetResourceType, fileURL: URL) -> Self? {
            let transaction = ChangeTransaction.requireCurrent()
            guard fileURL.isFileURL else { return nil }
            let request = newCreationRequest(in: transaction)
            let resource = ChangeContents.Resource(
                type: type, source: .file(fileURL), originalFilename: nil, uniformTypeIdentifier: nil,
                shouldMoveFile: false
            )
            transaction.record { $0.updateCreatedAsset(request.assetIdentifier) { $0.resources.append(resource) } }
            return request
        }

        /// A new creation request recorded in `transaction`.
        class func newCreationRequest(in transaction: ChangeTransaction) -> Self {
            let request = self.init(transaction: transaction, assetIdentifier: LocalIdentifier.asset(), asset: nil)
            transaction.record {
                $0.createdAssets.append(ChangeContents.CreatedAsset(localIdentifier: request.assetIdentifier))
            }
            return request
        }

        /// A placeholder for the asset this request creates; `nil` for a modification request.
        public var placeholderForCreatedAsset: PHObjectPlaceholder? { placeholder }

        /// Requests deletion of `assets` (`PHAsset` objects or placeholders).
        public class func deleteAssets(_ assets: any NSFastEnumeration) {
            let transaction = ChangeTransaction.requireCurrent()
            let ids = localIdentifiers(in: assets, of: "asset")
            transaction.record { $0.deletedAssets.append(contentsOf: ids) }
        }

        /// A request to modify `asset`.
        public convenience init(for asset: PHAsset) {
            let transaction = ChangeTransaction.requireCurrent()
            self.init(transaction: transaction, assetIdentifier: asset.localIdentifier, asset: asset)
            transaction.record { $0.updateEditedAsset(asset.localIdentifier) { _ in } }
        }

        /// The asset's creation date.
        public var creationDate: Date? {
            get { properties.creationDate ?? original.creationDate }
            set { update { $0.creationDate = .some(newValue) } }
        }

        /// The asset's location.
        public var location: CLLocation? {
            get { properties.location ?? original.location }
            set { update { $0.location = .some(newValue) } }
        }

        /// Whether the asset is a favorite.
        public var isFavorite: Bool {
            get { properties.isFavorite ?? original.isFavorite }
            set { update { $0.isFavorite = newValue } }
        }

        /// Whether the asset is hidden.
        public var isHidden: Bool {
            get { properties.isHidden ?? original.isHidden }
            set { update { $0.isHidden = newValue } }
        }

        private func update(_ change: (inout ChangeContents.AssetProperties) -> Void) {
            change(&properties)
            let properties = self.properties
            let id = assetIdentifier
            if isCreation {
                transaction.record { $0.updateCreatedAsset(id) { $0.properties = properties } }
            } else {
                transaction.record { $0.updateEditedAsset(id) { $0.properties = properties } }
            }
        }
    }
#endif
