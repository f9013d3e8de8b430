import Testing

@testable import AlbumKitCatalog
@testable import AlbumKitCore
@testable import AlbumKitFolders

/// The catalog's and the folder library's rows of the capability table in Docs/development.md
/// ("Backends and capabilities"); the in-memory kind's is in `CapabilityTests`.
@Suite struct CapabilityAdoptionTests {
    /// The table in Docs/development.md ("Backends and capabilities"), for the kinds this target
    /// builds (PhotoKit and shared: their own test targets exercise theirs).
    @Test func eachKindAdoptsWhatItCanDo() {
        // As the library sees a kind: a type known only at run time.
        let catalog: Any.Type = CatalogBackend.self
        let folders: Any.Type = FolderBackend.self
        #expect(catalog is any RecentlyDeletedKeeping.Type)
        #expect(catalog is any FileRecognition.Type)
        #expect(catalog is any StoredCopyReading.Type)
        #expect(catalog is any CompanionKeeping.Type)
        #expect(!(catalog is any AccessControl.Type))
        #expect(!(catalog is any PreviewRendering.Type))

        #expect(folders is any PermanentDeleting.Type)
        #expect(!(folders is any RecentlyDeletedKeeping.Type))
        #expect(folders is any FileRecognition.Type)
        #expect(folders is any ChangeFeed.Type)

    }
}
