/// What changed in one album since the listing before, as ``Album/changes(orderedBy:since:interval:)``
/// reports it: indexes a collection view can animate, and the assets themselves.
///
/// Indexes follow PhotoKit's change details (`PHFetchResultChangeDetails`): ``removedIndexes`` are
/// positions in the listing before, ``insertedIndexes`` and ``changedIndexes`` positions in
/// ``assets`` (the listing after), and each move goes from a position before to one after. In a
/// `UICollectionView`, delete, insert and move in one `performBatchUpdates`, then reload the changed.
///
/// ```swift
/// for try await change in album.changes() {
///     if change.isAlbumDeleted { showAlbumGone() }
///     guard change.hasIncrementalChanges else { items = change.assets; collectionView.reloadData(); continue }
///     collectionView.performBatchUpdates {
///         items = change.assets
///         collectionView.deleteItems(at: change.removedIndexes.map { IndexPath(item: $0, section: 0) })
///         collectionView.insertItems(at: change.insertedIndexes.map { IndexPath(item: $0, section: 0) })
///         for move in change.moves {
///             collectionView.moveItem(at: IndexPath(item: move.from, section: 0), to: IndexPath(item: move.to, section: 0))
///         }
///     }
///     collectionView.reloadItems(at: change.changedIndexes.map { IndexPath(item: $0, section: 0) })
/// }
/// ```
public struct AlbumChange: Sendable, Hashable {
    /// An asset that stayed in the album but changed place in the order.
    public struct Move: Sendable, Hashable {
        /// Its position in the listing before.
        public let from: Int
        /// Its position in ``AlbumChange/assets``.
        public let to: Int

        /// A move (tests).
        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// The album listed now; `nil` when no album resolves (not created yet, or deleted and not
    /// recreated by a save since).
    public let albumID: String?
    /// The album's assets now, in the stream's order: what the indexes after refer to.
    public let assets: [AssetInfo]
    /// Positions, in the listing before, of the assets no longer in the album (ascending).
    public let removedIndexes: [Int]
    /// The identifiers of the assets no longer in the album, in the order of ``removedIndexes``.
    public let removedAssetIDs: [String]
    /// Positions, in ``assets``, of the assets new in the album (ascending).
    public let insertedIndexes: [Int]
    /// Positions, in ``assets``, of the assets that stayed and whose description changed (favourite,
    /// dates, location, a new original), ascending.
    public let changedIndexes: [Int]
    /// The assets that stayed but are no longer in their order relative to the others.
    public let moves: [Move]
    /// `true` when the album listed before is gone: deleted (in Photos, by another process, while the
    /// app was not running). Every asset is then removed; the next save into an album named by title
    /// recreates it (``AlbumOutcome/recreated``) and the stream reports its assets as inserted.
    public let isAlbumDeleted: Bool
    /// Where this listing stands, to keep for ``Album/changes(orderedBy:since:interval:)`` after a restart.
    public let token: AlbumChangeToken
    /// `false` when the library could not say what changed (Photos: too many changes at once, or
    /// its history no longer reaching back to a restart's token): every index list is then empty.
    private let isIncremental: Bool

    package init(
        albumID: String?, assets: [AssetInfo], removedIndexes: [Int], removedAssetIDs: [String],
        insertedIndexes: [Int], changedIndexes: [Int], moves: [Move], isAlbumDeleted: Bool,
        token: AlbumChangeToken, isIncremental: Bool = true
    ) {
        self.isIncremental = isIncremental
        self.albumID = albumID
        self.assets = assets
        self.removedIndexes = removedIndexes
        self.removedAssetIDs = removedAssetIDs
        self.insertedIndexes = insertedIndexes
        self.changedIndexes = changedIndexes
        self.moves = moves
        self.isAlbumDeleted = isAlbumDeleted
        self.token = token
    }

    /// The assets new in the album, in the order of ``insertedIndexes``.
    ///
    /// ```swift
    /// for asset in change.insertedAssets { print("new:", asset.id) }
    /// ```
    public var insertedAssets: [AssetInfo] { insertedIndexes.map { assets[$0] } }

    /// The assets whose description changed, in the order of ``changedIndexes``.
    ///
    /// ```swift
    /// for asset in change.changedAssets { print(asset.id, asset.isFavorite) }
    /// ```
    public var changedAssets: [AssetInfo] { changedIndexes.map { assets[$0] } }

    /// Whether the indexes describe the change: `false` when the album was deleted or replaced by
    /// another, and when the library could not describe it (Photos reports too many changes at once
    /// without details, or a restart's token is older than the history Photos keeps): show
    /// ``assets`` afresh.
    public var hasIncrementalChanges: Bool { isIncremental && !isAlbumDeleted }

    /// Whether nothing changed (such changes are never reported, except as a stream's first element).
    public var isEmpty: Bool {
        removedIndexes.isEmpty && insertedIndexes.isEmpty && changedIndexes.isEmpty && moves.isEmpty
            && hasIncrementalChanges
    }

    /// The change that says only "show ``assets`` afresh" (``hasIncrementalChanges`` is `false`).
    package static func reload(albumID: String?, assets: [AssetInfo], token: AlbumChangeToken) -> AlbumChange {
        AlbumChange(
            albumID: albumID, assets: assets, removedIndexes: [], removedAssetIDs: [], insertedIndexes: [],
            changedIndexes: [], moves: [], isAlbumDeleted: false, token: token, isIncremental: false)
    }
}
