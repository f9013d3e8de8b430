import Foundation

/// What the catalog holds that its journal does not record: the journal removed, cut short or
/// overwritten while the catalog stayed whole. Nothing is lost yet, but a repair of a catalog
/// lost later would rebuild it without those saves and albums: `verify` says so, and `repair`
/// appends the records the journal lacks (appending, as every save does, so a save running
/// meanwhile loses nothing; the damaged lines stay, skipped by every reader).
extension CatalogBackend {
    /// The records that bring the journal up to the catalog: each album whose journaled title
    /// differs or is missing (`renameAlbum`, which also creates), each saved photo the journal
    /// lacks, and each album membership it lacks (`save` with the album), in the catalog's order;
    /// then each album and membership the journal still holds that the catalog no longer does
    /// (`deleteAlbum`, `removeFromAlbum`).
    ///
    /// After a crash (`deadOwners`, the processes proved dead), only what a killed process left
    /// unrecorded: the photos and albums of a save killed between its catalog commit and its journal
    /// record, and the photos of a deletion killed after it journaled and before it marked its rows
    /// (it deleted nothing). Never a photo whose latest record is a deletion by a process that may
    /// be alive: it may be deleting it right now.
    func journalGaps(afterACrashOf deadOwners: Set<String>? = nil) throws -> (
        missingAssets: Set<String>, records: [SaveJournal.Record]
    ) {
        let afterACrash = deadOwners != nil
        let records: [SaveJournal.Record]
        do { records = try journal.records() } catch { throw error.libraryError("read the library's journal") }
        // The journal's own view: saved assets, album titles, memberships.
        let saved = SaveJournal.savedAssets(in: records)
        var deletedBy: [String: String?] = [:]  // asset → who deleted it, when its latest record is its deletion
        for record in records {
            guard let asset = record.asset else { continue }
            deletedBy[asset] = record.op == .deleteAsset ? .some(record.owner) : nil
        }
        var titles: [String: String] = [:]
        var members = Set<[String]>()
        let isWhole = SaveJournal.wholeCommits(in: records)
        for record in records where isWhole(record) {
            switch record.op {
            case .createAlbum, .renameAlbum:
                if let album = record.album, let title = record.title { titles[album] = title }
            case .deleteAlbum:
                if let album = record.album {
                    titles[album] = nil
                    members = members.filter { $0[0] != album }
                }
            case .save:
                if let album = record.album, let asset = record.asset { members.insert([album, asset]) }
                // A save into an album its commit created names it (replay creates it so).
                if let album = record.album, let title = record.title, titles[album] == nil { titles[album] = title }
            case .removeFromAlbum:
                if let album = record.album, let asset = record.asset { members.remove([album, asset]) }
            case .deleteAsset:
                if let asset = record.asset { members = members.filter { $0[1] != asset } }
            }
        }
        return try withDatabase("read the catalog") { db in
            var gaps: [SaveJournal.Record] = []
            for row in try db.rows("SELECT id, title, created_at FROM album ORDER BY created_at, id") {
                guard let id = row.text(0), let title = row.text(1), titles[id] != title else { continue }
                if afterACrash && titles[id] != nil { continue }
                gaps.append(SaveJournal.Record(op: .renameAlbum, album: id, title: title, at: row.real(2)))
            }
            let assets = try db.rows(
                """
                SELECT a.id, a.path, a.original_name, a.byte_size, a.sha256, a.added_at, m.album_id, m.added_at
                FROM asset a LEFT JOIN album_asset m ON m.asset_id = a.id
                WHERE a.state = 'ready' ORDER BY a.added_at, a.id, m.album_id
                """)
            var missing = Set<String>()
            for row in assets {
                guard let id = row.text(0) else { continue }
                // Recording as saved again a photo a live process is deleting would make the
                // journal outlive the catalog.
                if let deadOwners, let deleter = deletedBy[id], !(deleter.map(deadOwners.contains) ?? false) {
                    continue
                }
                let album = row.text(6)
                if saved.contains(id) && (album == nil || members.contains([album!, id])) { continue }
                if !saved.contains(id) { missing.insert(id) }
                gaps.append(
                    SaveJournal.Record(
                        op: .save, asset: id, path: row.text(1), name: row.text(2), size: row.integer(3),
                        sha256: row.text(4), added: row.real(5), album: album, at: row.real(7)))
            }
            guard !afterACrash else { return (missing, gaps) }
            // The other way round, for albums: what the journal still holds that the catalog
            // deleted (a damaged deletion or removal line), which a rebuild would bring back.
            let albums = Set(try db.rows("SELECT id FROM album").compactMap { $0.text(0) })
            for album in titles.keys.sorted() where !albums.contains(album) {
                gaps.append(SaveJournal.Record(op: .deleteAlbum, album: album))
                members = members.filter { $0[0] != album }
            }
            var held = Set<[String]>()
            for row in try db.rows(
                "SELECT m.album_id, m.asset_id FROM album_asset m JOIN asset a ON a.id = m.asset_id WHERE a.state = 'ready'"
            ) {
                if let album = row.text(0), let asset = row.text(1) { held.insert([album, asset]) }
            }
            for member in members.sorted(by: { $0.lexicographicallyPrecedes($1) })
            where !held.contains(member) && saved.contains(member[1]) {
                gaps.append(SaveJournal.Record(op: .removeFromAlbum, asset: member[1], album: member[0]))
            }
            return (missing, gaps)
        }
    }

    /// The other way round: assets the journal says are saved that the catalog does not hold
    /// (ready), each with the path its last save recorded. Either the catalog lost them (their
    /// files are still there) or the journal lost their deletion (their files are gone).
    func assetsOnlyInTheJournal() throws -> [(id: String, path: String?)] {
        let records: [SaveJournal.Record]
        do { records = try journal.records() } catch { throw error.libraryError("read the library's journal") }
        var paths: [String: String] = [:]
        for record in records where record.op == .save {
            if let asset = record.asset, let path = record.path { paths[asset] = path }
        }
        let saved = SaveJournal.savedAssets(in: records)
        let ready = try withDatabase("read the catalog") { db in
            Set(try db.rows("SELECT id FROM asset WHERE state = 'ready'").compactMap { $0.text(0) })
        }
        return saved.subtracting(ready).sorted().map { ($0, paths[$0]) }
    }

    /// Whether the journal should hold the catalog's whole history (the catalog was created with
    /// it): only then does an asset it does not record mean a damaged journal.
    func journalHoldsWholeHistory() throws -> Bool {
        try withDatabase("read the catalog") { db in try SnapshotState(in: db).journalHoldsAll }
    }

    /// Appends ``journalGaps(afterACrashOf:)``'s records; returns how many it appended.
    func appendJournalGaps(afterACrashOf deadOwners: Set<String>? = nil) throws -> Int {
        let gaps = try journalGaps(afterACrashOf: deadOwners).records
        guard !gaps.isEmpty else { return 0 }
        do { try journal.append(gaps) } catch { throw error.libraryError("write the library's journal") }
        return gaps.count
    }
}
