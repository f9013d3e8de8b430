#if !canImport(ObjectiveC)
    import Foundation

    /// A request to create, delete, rename or change the contents of an album, inside a
    /// change block.
    public class PHAssetCollectionChangeRequest: PHChangeRequest {
        private let collectionIdentifier: String
        private let placeholder: PHObjectPlaceholder
        private var currentTitle: String

        required init(transaction: ChangeTransaction, collectionIdentifier: String, title: String) {
            self.collectionIdentifier = collectionIdentifier
            self.placeholder = PHObjectPlaceholder(localIdentifier: collectionIdentifier)
            self.currentTitle = title
            super.init(transaction: transaction)
        }

        /// A request to create an album titled `title`. Titles need not be unique.
        @discardableResult
        public class func creationRequestForAssetCollection(withTitle title: String) -> Self {
            let transaction = ChangeTransaction.requireCurrent()
            let request = self.init(
                transaction: transaction, collectionIdentifier: LocalIdentifier.assetCollection(), title: title
            )
            let album = ChangeContents.CreatedAlbum(localIdentifier: request.collectionIdentifier, title: title)
            transaction.record { $0.createdAlbums.append(album) }
            return request
        }

        /// A placeholder for the album this request creates (for other requests: the album itself).
        public var placeholderForCreatedAssetCollection: PHObjectPlaceholder { placeholder }

        /// Requests deletion of `assetCollections` (albums or placeholders). Deleting a smart album traps.
        public class func deleteAssetCollections(_ assetCollections: any NSFastEnumeration) {
            let transaction = ChangeTransaction.requireCurrent()
            for element in elements(of: assetCollections) {
                if let collection = element as? PHCollection, !collection.canPerform(.delete) {
                    preconditionFailure("Unsupported edit: \(collection) cannot be deleted")
                }
            }
            let ids = localIdentifiers(in: assetCollections, of: "asset collection")
            transaction.record { $0.deletedAlbums.append(contentsOf: ids) }
        }

        /// A request to modify `assetCollection`.
        ///
        /// `nil` when the collection cannot be edited (a smart or shared album) or no longer exists
        /// in the library (the user deleted it after it was fetched).
        ///
        /// Assumption: Apple declares the initializer failable without saying when it returns
        /// `nil`; these two cases are the simulator's model.
        public convenience init?(for assetCollection: PHAssetCollection) {
            self.init(for: assetCollection, assets: nil)
        }

        /// A request to modify `assetCollection` whose current contents are `assets`.
        ///
        /// New assets are added after the existing ones. `nil` as for ``init(for:)``.
        public convenience init?(for assetCollection: PHAssetCollection, assets: PHFetchResult<PHAsset>?) {
            let transaction = ChangeTransaction.requireCurrent()
            let id = assetCollection.localIdentifier
            guard assetCollection.canPerform(.addContent),
                let title = transaction.library.currentTitle(ofAlbum: id, in: transaction)
            else { return nil }
            self.init(transaction: transaction, collectionIdentifier: id, title: title)
            transaction.record { $0.updateEditedAlbum(id) { _ in } }
        }

        /// The album's title.
        public var title: String {
            get { currentTitle }
            set {
                let id = collectionIdentifier
                transaction.record { contents in
                    if let index = contents.createdAlbums.firstIndex(where: { $0.localIdentifier == id }) {
                        contents.createdAlbums[index].title = newValue
                    } else {
                        contents.updateEditedAlbum(id) { $0.title = newValue }
                    }
                }
                currentTitle = newValue
            }
        }

        /// Adds `assets` (`PHAsset` objects or placeholders) after the album's current contents.
        public func addAssets(_ assets: any NSFastEnumeration) {
            record(.add(Self.localIdentifiers(in: assets, of: "asset")))
        }

        /// Inserts `assets` at `indexes`; the counts must match.
        public func insertAssets(_ assets: any NSFastEnumeration, at indexes: IndexSet) {
            let ids = Self.localIdentifiers(in: assets, of: "asset")
            precondition(ids.count == indexes.count, "insertAssets: \(ids.count) assets for \(indexes.count) indexes")
            record(.insert(ids, indexes))
        }

        /// Removes `assets` from the album (they stay in the library).
        public func removeAssets(_ assets: any NSFastEnumeration) {
            record(.remove(Self.localIdentifiers(in: assets, of: "asset")))
        }

        /// Removes the assets at `indexes` from the album.
        public func removeAssets(at indexes: IndexSet) {
            record(.removeAt(indexes))
        }

        /// Replaces the assets at `indexes` with `assets`; the counts must match.
        public func replaceAssets(at indexes: IndexSet, withAssets assets: any NSFastEnumeration) {
            let ids = Self.localIdentifiers(in: assets, of: "asset")
            precondition(ids.count == indexes.count, "replaceAssets: \(ids.count) assets for \(indexes.count) indexes")
            record(.replace(indexes, ids))
        }

        /// Moves the assets at `fromIndexes` to `toIndex`.
        public func moveAssets(at fromIndexes: IndexSet, to toIndex: Int) {
            record(.move(fromIndexes, toIndex))
        }

        private func record(_ operation: ChangeContents.MemberOperation) {
            let id = collectionIdentifier
            transaction.record { $0.updateEditedAlbum(id) { $0.memberOperations.append(operation) } }
        }
    }
#endif
