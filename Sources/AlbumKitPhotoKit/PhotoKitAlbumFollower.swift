import AlbumKitCore
import Foundation

#if canImport(Photos)
    import Photos
#else
    import PhotoKitSimulator
#endif

/// What one album's change stream holds between Photos' changes: the album's fetch result and the
/// last change's token. Used by one task only.
struct PhotoKitAlbumFollower {
    let order: AssetOrder
    let library: PHPhotoLibrary
    private var albumID: String?
    private var fetch: PHFetchResult<PHAsset>?
    private var last: AlbumChangeToken

    init(order: AssetOrder, library: PHPhotoLibrary) {
        self.order = order
        self.library = library
        last = AlbumChangeToken(albumID: nil, order: order, assets: [])
    }

    /// The album now compared with `token`: its listing compared with the token's, the assets
    /// Photos' history reports updated since marked changed; a reload when the history no longer
    /// reaches back to the token.
    mutating func start(
        since token: AlbumChangeToken?, resolve: @Sendable (AlbumChangeToken) async throws -> String?
    ) async throws -> AlbumChange {
        if let token { last = token }
        var updated = Set<String>()
        var reachable = true
        if let position = token?.libraryPosition {
            if let since = Self.unarchive(position) {
                do {
                    for change in try library.fetchPersistentChanges(since: since) {
                        updated.formUnion(try change.changeDetails(for: .asset).updatedLocalIdentifiers)
                    }
                } catch let error as PHPhotosError
                    where error.code == .persistentChangeTokenExpired
                    || error.code == .persistentChangeDetailsUnavailable
                {
                    reachable = false
                }
            } else {
                reachable = false  // a token of another device or Photos version: no history to ask
            }
        }
        // Read before the fetch: a later start asks the history from a point no later than the listing.
        let position = Self.archive(library.currentChangeToken)
        let id = try await resolve(last)
        let assets = refetch(id)
        let albumGone = last.albumID != nil && last.albumID != id
        let change =
            !reachable && !albumGone
            ? AlbumChange.reload(
                albumID: id, assets: assets,
                token: AlbumChangeToken(albumID: id, order: order, assets: assets, libraryPosition: position))
            : AlbumListingDiff.change(
                from: last, to: assets, albumID: id, order: order, alsoChanged: updated, libraryPosition: position)
        last = change.token
        return change
    }

    /// What `change` did to the album, or `nil` when it did not touch it.
    mutating func apply(
        _ change: PHChange, resolve: @Sendable (AlbumChangeToken) async throws -> String?
    ) async throws -> AlbumChange? {
        // Photos' token is read as the change is handled: it may already include a later change,
        // which this stream reports next (a restart in between may then miss that change's edits
        // of a picture; what the listing shows is compared anyway).
        let position = Self.archive(library.currentChangeToken)
        guard let albumID, let fetch, PhotoKitBackend.collection(albumID) != nil else {
            // No album, or the album is gone: look for the one the title names now.
            let id = try await resolve(last)
            guard id != nil || last.albumID != nil else { return nil }
            let assets = refetch(id)
            let result = AlbumListingDiff.change(
                from: last, to: assets, albumID: id, order: order, libraryPosition: position)
            guard !result.isEmpty || result.albumID != last.albumID else { return nil }
            last = result.token
            return result
        }
        guard let details = change.changeDetails(for: fetch) else { return nil }
        self.fetch = details.fetchResultAfterChanges
        let assets = Self.infos(details.fetchResultAfterChanges)
        let token = AlbumChangeToken(albumID: albumID, order: order, assets: assets, libraryPosition: position)
        let result: AlbumChange
        if details.hasIncrementalChanges {
            var moves: [AlbumChange.Move] = []
            if details.hasMoves { details.enumerateMoves { moves.append(AlbumChange.Move(from: $0, to: $1)) } }
            let removed = Array(details.removedIndexes ?? [])
            result = AlbumChange(
                albumID: albumID, assets: assets, removedIndexes: removed,
                removedAssetIDs: details.removedObjects.map(\.localIdentifier),
                insertedIndexes: Array(details.insertedIndexes ?? []),
                changedIndexes: Array(details.changedIndexes ?? []),
                moves: moves, isAlbumDeleted: false, token: token)
        } else {
            result = AlbumChange.reload(albumID: albumID, assets: assets, token: token)
        }
        last = token
        return result
    }

    /// Fetches album `id` (none when `nil` or gone), sorted by creation date; its assets described.
    private mutating func refetch(_ id: String?) -> [AssetInfo] {
        albumID = nil
        fetch = nil
        guard let id, let collection = PhotoKitBackend.collection(id) else { return [] }
        let options = PHFetchOptions()
        options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
        let result = PHAsset.fetchAssets(in: collection, options: options)
        albumID = id
        fetch = result
        return Self.infos(result)
    }

    private static func infos(_ result: PHFetchResult<PHAsset>) -> [AssetInfo] {
        (0..<result.count).map { PhotoKitBackend.info(result.object(at: $0)) }
    }

    /// Photos' token as bytes for ``AlbumChangeToken`` (`NSKeyedArchiver`, secure coding);
    /// `nil` if it cannot be archived (the next start then compares listings alone).
    static func archive(_ token: PHPersistentChangeToken) -> Data? {
        // Without the bytes, the next start compares listings alone (documented above).
        try? NSKeyedArchiver.archivedData(withRootObject: token, requiringSecureCoding: true)
    }

    /// A token read back from ``archive(_:)``'s bytes; `nil` for bytes that hold none.
    static func unarchive(_ data: Data) -> PHPersistentChangeToken? {
        // Forged or foreign bytes are no token: the stream starts with a reload.
        try? NSKeyedUnarchiver.unarchivedObject(ofClass: PHPersistentChangeToken.self, from: data)
    }
}
