/// What opening a catalog must finish after a power loss took transaction B of some saves with it
/// (``CatalogBackend/rollForward()``), read from the journal's tail: the saves whose flushed
/// records name a pending row of a process that is gone.
///
/// - A commit is finished whole or not at all: one whose records were cut short (fewer than its
///   `of`) was never acknowledged.
/// - A save whose asset the journal deletes afterwards is not finished (a deletion marks its rows
///   pending too); its album is kept, unless the journal deletes that too.
/// - Every asset a finished record names is made ready first, whichever record names it: a copy of
///   bytes saved at the same moment by another process may be journaled before the save it
///   became.
///
/// ```swift
/// let plan = RollForwardPlan(records: journal.records(from: remembered), deadPendingRows: dead)
/// plan.saves  // to finish, in journal order
/// ```
struct RollForwardPlan {
    /// The save records to finish, in journal order.
    private(set) var saves: [SaveJournal.Record] = []
    /// Saves not finished (deleted afterwards) whose albums stay.
    private(set) var albumsOnly: [SaveJournal.Record] = []
    /// The dead pending rows the finished records name as their asset.
    private(set) var assets: [String] = []

    var isEmpty: Bool { saves.isEmpty && albumsOnly.isEmpty }

    init(records: [SaveJournal.Record], deadPendingRows dead: Set<String>) {
        let isWhole = SaveJournal.wholeCommits(in: records)
        var deletedAssets = Set<String>()
        var deletedAlbums = Set<String>()
        for record in records.reversed() {
            switch record.op {
            case .deleteAsset: if let asset = record.asset { deletedAssets.insert(asset) }
            case .deleteAlbum: if let album = record.album { deletedAlbums.insert(album) }
            case .save:
                guard let asset = record.asset, let pending = record.pending, dead.contains(pending), isWhole(record)
                else { continue }
                var kept = record
                if let album = record.album, deletedAlbums.contains(album) { kept.album = nil }
                if deletedAssets.contains(asset) || deletedAssets.contains(pending) {
                    if kept.album != nil { albumsOnly.append(kept) }
                } else {
                    saves.append(kept)
                }
            default: continue
            }
        }
        saves.reverse()
        albumsOnly.reverse()
        var seen = Set<String>()
        assets = saves.compactMap(\.asset).filter { dead.contains($0) && seen.insert($0).inserted }
    }
}
