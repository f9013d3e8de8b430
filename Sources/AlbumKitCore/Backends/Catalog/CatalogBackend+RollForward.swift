import Foundation

/// Finishing, when the library is opened, the saves a power loss interrupted after their commit
/// point (see Docs/catalog.md, "After a power loss").
extension CatalogBackend {
    /// Finishes the saves whose catalog commit was lost with the power after their journal records
    /// were flushed (the commit point: transaction B is not flushed by itself). Such a save left
    /// its rows `pending`, owned by a process that is gone, and its flushed `save` records name
    /// them (`pending`); its files' data and names were flushed before the records were written.
    /// ``RollForwardPlan`` says which records; each is applied as transaction B would have: the
    /// asset made `ready` (only with its file there at the recorded size), or, for a copy of bytes
    /// already saved, the copy's row and file removed (or, when the asset's own file is missing or
    /// damaged and the copy intact, the copy moved into its place, as the save was doing); the album created under its recorded id
    /// when missing, and the asset added. Pending rows left over are ``recover()``'s, which
    /// removes them with their files.
    func rollForward() throws {
        let dead = Set(try deadPendingRows().map(\.id))
        guard !dead.isEmpty else { return }
        let remembered = try withDatabase("read the catalog") { db in try Self.rememberedJournalLength(db) }
        let records: [SaveJournal.Record]
        do { records = try journal.records(from: remembered) } catch {
            throw error.libraryError("read the library's journal")
        }
        let plan = RollForwardPlan(records: records, deadPendingRows: dead)
        guard !plan.isEmpty else { return }
        let journalLength = journal.length()
        try withDatabase("finish a save interrupted by a power loss") { db in
            try db.immediateTransaction { try finish(plan, in: db, journalLength: journalLength) }
        }
    }

    private func finish(_ plan: RollForwardPlan, in db: Database, journalLength: Int64) throws {
        // Every asset first: a copy's record may come before the record of the asset it became.
        for id in plan.assets {
            guard
                let row = try db.row(
                    "SELECT path, byte_size FROM asset WHERE id = ? AND state = 'pending'", [.text(id)]),
                let path = row.text(0),
                try FileSystem.status(atPath: root.path + "/" + path).map({ Int64($0.st_size) }) == row.integer(1)
            else { continue }  // its file is gone (refused below), or finished by another opener
            try db.run("UPDATE asset SET state = 'ready', owner = NULL WHERE id = ? AND state = 'pending'", [.text(id)])
        }
        var finished: Int64 = 0
        for record in plan.saves {
            guard let asset = record.asset, let pending = record.pending,
                try db.row("SELECT 1 FROM asset WHERE id = ? AND state = 'ready'", [.text(asset)]) != nil
            else { continue }
            if pending != asset,
                let copy = try db.row(
                    "SELECT path FROM asset WHERE id = ? AND state = 'pending'", [.text(pending)])?.text(0)
            {
                try db.run("DELETE FROM asset WHERE id = ? AND state = 'pending'", [.text(pending)])
                if let own = try db.row("SELECT path FROM asset WHERE id = ?", [.text(asset)])?.text(0),
                    let size = record.size, let sha256 = record.sha256,
                    !hasIntactFile(own, size: size, sha256: sha256), hasIntactFile(copy, size: size, sha256: sha256)
                {
                    // The save was restoring the asset's damaged file with this copy.
                    try restore(own, from: copy)
                } else {
                    try FileSystem.unlink(root.path + "/" + copy)
                }
            }
            finished += 1
            try keepAlbum(of: record, adding: asset, in: db)
        }
        for record in plan.albumsOnly { try keepAlbum(of: record, adding: nil, in: db) }
        // A save that could not be finished (its file is gone) stays in the journal's tail, so
        // that the check against the journal refuses the library and names `repair`.
        try Self.recordSaves(finished, journalLength: finished == plan.saves.count ? journalLength : nil, in: db)
    }

    /// The record's album, created under its recorded id when missing and remembered for its
    /// title, with `asset` added at its end.
    private func keepAlbum(of record: SaveJournal.Record, adding asset: String?, in db: Database) throws {
        guard let albumID = record.album, let title = try? AlbumTitle(record.title ?? "") else { return }
        let store = CatalogAlbumStore(db: db, now: record.at ?? 0)
        if try !store.albumExists(id: albumID) {
            try store.insertAlbum(id: albumID, title: title, createdAt: record.at ?? 0)
        }
        try store.remember(albumID, for: title)
        guard let asset else { return }
        let position = try store.lastPosition(inAlbum: albumID) + 1
        _ = try store.addIfMissing(asset, toAlbum: albumID, position: position, at: record.at ?? 0)
    }
}
