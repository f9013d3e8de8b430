import AlbumKitConformance
import AlbumKitFoldersTestSupport
import Foundation
import Testing

@testable import AlbumKitCore
@testable import AlbumKitFolders

/// The starting point of a watched library's changes (``LibraryChangePoller``) is never reported,
/// so it must not hold half of a save: a save made while it is read (after the albums were read,
/// before the assets were) would otherwise put its photo in the starting point and leave its new
/// album to be reported later, without the photo.
@Suite("Folder library: the changes' starting point")
struct ChangesStartingPointTests {
    /// A folder library read for changes that, the first time its assets are listed, saves a photo
    /// into a new album first: the reading sees the albums from before the save and the assets
    /// from after it.
    struct SavingWhileRead: AlbumBrowsing {
        let inner: FolderBackend
        let during: @Sendable () async throws -> Void
        let started = Locked(false)

        var identity: String { inner.identity }
        func albumUnavailableReason(needsAlbum: Bool) async throws -> String? {
            try await inner.albumUnavailableReason(needsAlbum: needsAlbum)
        }
        func stage(_ media: Media) async throws -> FolderBackend.Staged { try await inner.stage(media) }
        func stage(_ media: [Media], prepared: @escaping @Sendable () -> Void) async
            -> [Result<FolderBackend.Staged, AlbumError>]
        { await inner.stage(media, prepared: prepared) }
        func discard(_ staged: FolderBackend.Staged) async { await inner.discard(staged) }
        func commit(_ staged: [FolderBackend.Staged], to album: AlbumRequest?) async throws -> CommitReceipt {
            try await inner.commit(staged, to: album)
        }
        func findAlbum(titled title: AlbumTitle) async throws -> String? { try await inner.findAlbum(titled: title) }
        func albums() async throws -> [AlbumInfo] { try await inner.albums() }
        func album(withID id: String) async throws -> AlbumInfo? { try await inner.album(withID: id) }
        func assets(inAlbumWithID id: String) async throws -> [AssetInfo] { try await inner.assets(inAlbumWithID: id) }
        func assets(inAlbumWithID id: String, originallyNamed keys: [String]) async throws -> [AssetInfo] {
            try await inner.assets(inAlbumWithID: id, originallyNamed: keys)
        }
        func assets(in order: AssetOrder, after cursor: AssetCursor?, limit: Int) async throws -> AssetPage {
            let first = started.withLock { started -> Bool in
                defer { started = true }
                return !started
            }
            if first { try await during() }
            return try await inner.assets(in: order, after: cursor, limit: limit)
        }
    }

    @Test func aSaveDuringTheFirstReadingIsNeverToldInPart() async throws {
        try await FolderFixture.withRoot { root, _ in
            let inner = FolderBackend(root: root, trash: FolderFixture.trash(root))
            let library = PhotoLibrary(backend: inner)
            _ = try await library.createAlbum(titled: "First")
            let during = Locked<SavedAsset?>(nil)
            let backend = SavingWhileRead(inner: inner) {
                let saved = try await library.album(titled: "During").save(.data(Fixture.uniqueJPEG("during")))
                during.withLock { $0 = saved }
            }
            let path = root.path
            let poller = LibraryChangePoller(backend: backend, interval: .seconds(60)) {
                try DirectoryWatch(root: path)
            }
            let changes = ChangeCollector(poller.changes())
            defer { changes.stop() }
            // A save after the start: told whole, once the feed is past its starting point.
            var after: SavedAsset?
            for attempt in 1...30 where after == nil {
                let saved = try await library.album(titled: "After \(attempt)").save(
                    .data(Fixture.uniqueJPEG("after \(attempt)")))
                if await changes.wait(limit: .seconds(10), { $0.insertedAssetIDs.contains(saved.assetID) }) != nil {
                    after = saved
                }
            }
            #expect(after != nil, "no save after the start was told")
            let saved = try #require(during.withLock { $0 })
            // The save made during the first reading is all in the starting point: neither its album
            // nor its photo is told later, and nothing told names one without the other.
            let told = changes.all()
            #expect(!told.contains { $0.insertedAlbumIDs.contains(saved.albumID!) })
            #expect(!told.contains { $0.insertedAssetIDs.contains(saved.assetID) })
        }
    }
}
