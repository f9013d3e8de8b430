/// What a turn of a library's changes touched, told from the changes alone: the albums whose
/// listing may have changed, and how many assets changed. Coarser than ``LibraryChange`` (nothing
/// says whether an asset or album is new, changed or gone), and so cheaper to follow: a catalog
/// tells it from its journal's records without keeping its assets and memberships in memory
/// (``TouchFeed``). The album page needs no more: a page refreshes what it shows when it hears of
/// a change, and a share link's guest hears only of its album.
///
/// ```swift
/// for try await touch in library.touches() where touch.albumIDs.contains(albumID) { await reload() }
/// ```
package struct LibraryTouch: Sendable, Hashable {
    /// The albums created, renamed, deleted, or whose assets came, went, or were deleted or
    /// restored; each once, in the order first touched.
    package var albumIDs: [String]
    /// How many assets were saved, changed, deleted or restored (an asset touched twice counts twice).
    package var assets: Int

    package init(albumIDs: [String] = [], assets: Int = 0) {
        self.albumIDs = albumIDs
        self.assets = assets
    }

    /// What `change` touched.
    package init(_ change: LibraryChange) {
        self.init(
            albumIDs: change.insertedAlbumIDs + change.changedAlbumIDs + change.removedAlbumIDs,
            assets: change.insertedAssetIDs.count + change.removedAssetIDs.count + change.changedAssetIDs.count)
    }

    /// Whether nothing was touched (such turns are never reported).
    package var isEmpty: Bool { albumIDs.isEmpty && assets == 0 }

    /// `changes` as touches.
    package static func touches(
        of changes: AsyncThrowingStream<LibraryChange, any Error>
    ) -> AsyncThrowingStream<LibraryTouch, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: LibraryTouch.self)
        let task = Task {
            do {
                for try await change in changes { continuation.yield(LibraryTouch(change)) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
