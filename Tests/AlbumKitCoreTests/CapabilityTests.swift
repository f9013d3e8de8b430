import AlbumKitConformance
import Foundation
import Testing

@testable import AlbumKitCore

/// The saving contract (`LibraryBackend`) is enough for a library kind to save; what a kind can do
/// beyond it is a capability, checked once by `PhotoLibrary`: a kind without it gives the error, or
/// the answer, it always gave.
@Suite struct CapabilityTests {
    /// A kind that only saves: the contract's requirements and nothing more.
    final class SaveOnlyBackend: LibraryBackend {
        let identity = "save-only:\(UUID().uuidString)"
        let saved = Locked([String]())

        func albumUnavailableReason(needsAlbum: Bool) async throws -> String? { nil }
        func stage(_ media: Media) async throws -> String {
            _ = try MediaReader(media)  // refuses what is no photo or video, as every kind does
            return media.originalFilename ?? "?"
        }
        func discard(_ staged: String) async {}
        func commit(_ staged: [String], to album: AlbumRequest?) async throws -> CommitReceipt {
            let ids = saved.withLock { saved in
                staged.map { name in
                    saved.append(name)
                    return String(saved.count)
                }
            }
            return CommitReceipt(
                albumID: nil, albumOutcome: nil,
                assets: ids.map { .success(CommittedAsset(assetID: $0, metadata: nil)) })
        }
        func findAlbum(titled title: AlbumTitle) async throws -> String? { nil }
    }

    static let recentlyDeletedMessage =
        "This library keeps no recently deleted of its own (a folder library uses the desktop Trash, Photos its Recently Deleted album)."

    @Test func aKindThatOnlySavesSavesAndNamesWhatItCannotDo() async throws {
        let backend = SaveOnlyBackend()
        let library = PhotoLibrary(backend: backend)
        let saved = try await library.save(.file(Fixture.jpeg))
        #expect(saved.assetID == "1")
        #expect(backend.saved.withLock { $0 } == ["harbour.jpg"])

        try await expectNotSupported("This library cannot list its albums.") { _ = try await library.albums() }
        try await expectNotSupported("This library cannot list, move or delete single assets.") {
            _ = try await library.assets(orderedBy: .dateAdded)
        }
        try await expectNotSupported("This library cannot change its albums.") {
            _ = try await library.createAlbum(titled: "Trips")
        }
        try await expectNotSupported("This library cannot list, move or delete single assets.") {
            _ = try await library.deleteAssets(withIDs: ["1"])
        }
        try await expectNotSupported(Self.recentlyDeletedMessage) { _ = try await library.recentlyDeletedAssets() }
        try await expectNotSupported("This library cannot verify its files.") { _ = try await library.verify() }

        // Where a kind without the capability has an honest answer, that is the answer.
        #expect(try await library.access(for: .readWrite) == .authorized)
        #expect(library.currentAccess(for: .savingIntoAlbums) == .authorized)
        #expect(try await library.thumbnail(forAssetWithID: "1") == nil)
        #expect(try await library.fullSizeImage(forAssetWithID: "1") == nil)
        #expect(try await library.storedSHA256(ofAssetWithID: "1") == nil)
        #expect(try await library.storedCompanionSHA256s(ofAssetWithID: "1").isEmpty)
        #expect(try await library.recognise([nil], in: nil) == [nil])
    }

    @Test func aKindThatDeletesWithoutKeepingDeletionsSaysSo() async throws {
        let backend = ScriptedSaverBackend()
        let library = PhotoLibrary(backend: backend)
        let saved = try await library.save(.file(Fixture.jpeg))
        try await expectNotSupported(Self.recentlyDeletedMessage) {
            _ = try await library.deleteAssets(withIDs: [saved.assetID], permanently: true)
        }
        try await expectNotSupported(Self.recentlyDeletedMessage) { try await library.restoreAssets(withIDs: ["x"]) }
        try await expectNotSupported(Self.recentlyDeletedMessage) {
            _ = try await library.emptyRecentlyDeleted(deletedBefore: Date())
        }
        #expect(try await library.deleteAssets(withIDs: [saved.assetID]).map(\.id) == [saved.assetID])
    }

    /// The table in Docs/development.md ("Backends and capabilities"), for the in-memory kind
    /// (each other kind's table row is checked by `CapabilityAdoptionTests` or its own test target).
    @Test func eachKindAdoptsWhatItCanDo() {
        // As the library sees a kind: a type known only at run time.
        let inMemory: Any.Type = InMemoryBackend.self

        #expect(inMemory is any AccessControl.Type)
        #expect(inMemory is any OriginalReading.Type)
        #expect(!(inMemory is any CompanionKeeping.Type))
        #expect(!(inMemory is any PermanentDeleting.Type))
        #expect(!(inMemory is any OriginalDownloading.Type))
    }

    private func expectNotSupported(
        _ message: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
    ) async throws {
        let error = await #expect(throws: AlbumError.self, sourceLocation: sourceLocation) { try await body() }
        #expect(error?.code == .notSupported, sourceLocation: sourceLocation)
        #expect(error?.message == message, sourceLocation: sourceLocation)
    }
}
