#if !canImport(ObjectiveC)
    import Foundation

    /// The abstract base class of asset collections and collection lists.
    // @unchecked Sendable: restated from PHObject; only immutable `let` properties.
    public class PHCollection: PHObject, @unchecked Sendable {
        private let title: String?

        /// The user-supplied title of an album, or the localized name of a built-in collection.
        public var localizedTitle: String? { title }

        /// Whether the collection can contain assets.
        public var canContainAssets: Bool { true }

        /// Whether the collection can contain other collections.
        public var canContainCollections: Bool { false }

        init(localIdentifier: String, localizedTitle: String?, revision: Int = 0) {
            self.title = localizedTitle
            super.init(localIdentifier: localIdentifier, revision: revision)
        }

        /// Whether the collection supports `anOperation`.
        @discardableResult
        public func canPerform(_ anOperation: PHCollectionEditOperation) -> Bool { false }

        /// The albums at the top level of the user's library, in no set order (as album fetches).
        @discardableResult
        public class func fetchTopLevelUserCollections(with options: PHFetchOptions?) -> PHFetchResult<PHCollection> {
            let albums = PHPhotoLibrary.shared().fetchAssetCollections(
                type: .album, subtype: .albumRegular, identifiers: nil, containing: nil, options: options
            )
            return PHFetchResult(objects: albums.map { $0 as PHCollection })
        }
    }
#endif
