import AlbumKitCore
import Foundation

#if canImport(Photos)
    import Photos
#else
    import PhotoKitSimulator
#endif

/// Turns Photos' change notifications into ``LibraryChange`` values: it holds fetch results of
/// every asset, every regular album and each album's members, asks each `PHChange` for their
/// details, and keeps the results after the change for the next one.
// @unchecked Sendable: NSObject is not Sendable on Linux, and fetch results are not Sendable on
// every SDK. The fetch results are only read and replaced while `fetches`' lock is held; the
// continuation is Sendable.
final class PhotoKitChangeObserver: NSObject, PHPhotoLibraryChangeObserver, @unchecked Sendable {
    private struct Fetches {
        var assets: PHFetchResult<PHAsset>
        var albums: PHFetchResult<PHAssetCollection>
        var members: [String: PHFetchResult<PHAsset>]
    }

    private let fetches: Locked<Fetches>
    private let continuation: AsyncThrowingStream<LibraryChange, any Error>.Continuation

    /// Fetches everything observed now; call ``start()`` to register with Photos.
    init(continuation: AsyncThrowingStream<LibraryChange, any Error>.Continuation) {
        self.continuation = continuation
        let albums = Self.fetchAlbums()
        var members: [String: PHFetchResult<PHAsset>] = [:]
        for index in 0..<albums.count {
            let album = albums.object(at: index)
            members[album.localIdentifier] = PHAsset.fetchAssets(in: album, options: nil)
        }
        fetches = Locked(Fetches(assets: PHAsset.fetchAssets(with: nil), albums: albums, members: members))
    }

    /// The regular user albums (the albums AlbumKit lists).
    private static func fetchAlbums() -> PHFetchResult<PHAssetCollection> {
        PHAssetCollection.fetchAssetCollections(with: .album, subtype: .albumRegular, options: nil)
    }

    func photoLibraryDidChange(_ changeInstance: PHChange) {
        let change = fetches.withLock { fetches in
            var change = LibraryChange()
            if let details = changeInstance.changeDetails(for: fetches.assets) {
                change.insertedAssetIDs = details.insertedObjects.map(\.localIdentifier)
                change.removedAssetIDs = details.removedObjects.map(\.localIdentifier)
                change.changedAssetIDs = details.changedObjects.map(\.localIdentifier)
                fetches.assets = details.fetchResultAfterChanges
            }
            var changedAlbums: [String] = []
            if let details = changeInstance.changeDetails(for: fetches.albums) {
                change.insertedAlbumIDs = details.insertedObjects.map(\.localIdentifier)
                change.removedAlbumIDs = details.removedObjects.map(\.localIdentifier)
                changedAlbums = details.changedObjects.map(\.localIdentifier)
                fetches.albums = details.fetchResultAfterChanges
            }
            // An album whose members changed, whether or not Photos also reports the album itself.
            var members: [String: PHFetchResult<PHAsset>] = [:]
            for index in 0..<fetches.albums.count {
                let album = fetches.albums.object(at: index)
                let id = album.localIdentifier
                guard let before = fetches.members[id] else {
                    members[id] = PHAsset.fetchAssets(in: album, options: nil)
                    continue
                }
                if let details = changeInstance.changeDetails(for: before) {
                    members[id] = details.fetchResultAfterChanges
                    if !details.insertedObjects.isEmpty || !details.removedObjects.isEmpty || details.hasMoves {
                        changedAlbums.append(id)
                    }
                } else {
                    members[id] = before
                }
            }
            fetches.members = members
            let inserted = Set(change.insertedAlbumIDs)
            var seen = Set<String>()
            change.changedAlbumIDs = changedAlbums.filter { !inserted.contains($0) && seen.insert($0).inserted }
            return change
        }
        if !change.isEmpty { continuation.yield(change) }
    }

    /// Photos' changes as a sequence, until the consumer stops; throws `.accessDenied` at once
    /// without read access (Photos tells an app only about what it may read).
    static func changes() -> AsyncThrowingStream<LibraryChange, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: LibraryChange.self)
        let status = PHPhotoLibrary.authorizationStatus(for: .readWrite)
        guard status == .authorized || status == .limited else {
            continuation.finish(
                throwing: AlbumError(
                    .accessDenied,
                    "Watching Photos needs read-write (or limited) access; ask for it with requestAccess(for: .readWrite)."
                ))
            return stream
        }
        let observer = PhotoKitChangeObserver(continuation: continuation)
        let library = PHPhotoLibrary.shared()
        library.register(observer)
        continuation.onTermination = { _ in library.unregisterChangeObserver(observer) }
        return stream
    }
}
