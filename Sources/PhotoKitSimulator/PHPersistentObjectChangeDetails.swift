#if !canImport(ObjectiveC)
    import Foundation

    /// The objects of one type that one persistent change inserted, updated or deleted (iOS 16,
    /// macOS 13): local identifiers only, since the objects may be gone.
    // Not Sendable: Apple's declaration does not say it is (the stricter choice).
    public final class PHPersistentObjectChangeDetails: NSObject {
        /// The type of the objects described.
        public let objectType: PHObjectType
        /// The identifiers of objects the change created.
        public let insertedLocalIdentifiers: Set<String>
        /// The identifiers of objects the change modified (an asset's properties or picture, an
        /// album's title or members).
        public let updatedLocalIdentifiers: Set<String>
        /// The identifiers of objects the change deleted.
        public let deletedLocalIdentifiers: Set<String>

        init(objectType: PHObjectType, changes: ChangeHistory.ObjectChanges) {
            self.objectType = objectType
            insertedLocalIdentifiers = changes.inserted
            updatedLocalIdentifiers = changes.updated
            deletedLocalIdentifiers = changes.deleted
        }
    }
#endif
