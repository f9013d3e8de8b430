#if !canImport(ObjectiveC)
    import Foundation

    /// One change in the library's persistent history (iOS 16, macOS 13), as
    /// `PHPhotoLibrary.fetchPersistentChanges(since:)` returns it.
    public final class PHPersistentChange: NSObject, Sendable {
        /// The position right after this change: pass it to a later fetch to get what followed.
        public let changeToken: PHPersistentChangeToken
        private let entry: ChangeHistory.Entry

        init(entry: ChangeHistory.Entry, libraryIdentifier: String) {
            self.entry = entry
            changeToken = PHPersistentChangeToken(libraryIdentifier: libraryIdentifier, position: entry.position)
        }

        /// The objects of `objectType` this change inserted, updated or deleted.
        ///
        /// Photos throws `persistentChangeDetailsUnavailable` when it cannot describe a change; the
        /// simulator always can. Folders are never changed in the simulator (empty details).
        public func changeDetails(for objectType: PHObjectType) throws -> PHPersistentObjectChangeDetails {
            let changes: ChangeHistory.ObjectChanges =
                switch objectType {
                case .asset: entry.assets
                case .assetCollection: entry.albums
                case .collectionList: ChangeHistory.ObjectChanges()
                }
            return PHPersistentObjectChangeDetails(objectType: objectType, changes: changes)
        }
    }
#endif
