import AlbumKitCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Gives a library without a journal its journal, once and crash-safely:
///
/// - a library of the previous release (its catalog held the truth, `journal/saves.jsonl` a
///   copy): every album, remembered title, asset and membership of the old catalog — and the saves
///   only its journal holds (a save whose catalog commit a power loss took), when their files are
///   there — become the records of a new journal; with the old catalog unreadable, the old journal
///   is replayed instead. The old files move to `previous-release/` (kept, never deleted);
/// - a library whose journal was lost but whose index is whole: the index's contents;
/// - a new library: an empty journal.
///
/// The new journal is written to a hidden file and renamed into place in one step
/// (``LibraryJournal/create(atLibraryRoot:id:changes:)``): killed at any moment, the library is
/// either as it was (and converted again at the next opening) or converted.
struct CatalogMigration {
    let backend: CatalogBackend
    private var root: String { backend.root.path }

    /// The library's content, gathered from the old files.
    private struct Contents {
        var albums: [(id: String, title: String, createdAt: Double)] = []
        var remembered: [(key: String, album: String)] = []
        var assets: [String: CatalogChange.SavedAsset] = [:]
        var assetOrder: [String] = []
        var memberships: [(album: String, asset: String, at: Double)] = []
        /// Read from an index of this release (whose journal was lost), not the previous release's.
        var isCurrentIndex = false
        /// Why the old catalog could not be read, when there was no old journal either: the
        /// library's files are then adopted (``CatalogRepair``) instead of left unnamed.
        var unreadableCatalog: String?

        mutating func add(_ asset: CatalogChange.SavedAsset) {
            if assets[asset.id] == nil { assetOrder.append(asset.id) }
            assets[asset.id] = asset
        }
    }

    /// Writes the journal the library lacks (see the type's description). Serialized across
    /// processes by a `flock` on the library's folder; a journal another process wrote meanwhile
    /// is kept.
    ///
    /// - Returns: whether the files under `originals/` are to be adopted, because the old catalog
    ///   could not be read and no journal names them (``adoptsOriginalsMarker`` says so until done).
    @discardableResult
    func makeJournal() throws -> Bool {
        // The library's folder itself is the lock: no file of its own to leave behind.
        let lock: FileSystem.Descriptor
        do {
            lock = try FileSystem.openDirectory(root)
            try FileSystem.lock(lock, wait: true)
        } catch { throw error.libraryError("open the library") }
        defer { FileSystem.close(lock) }
        guard !backend.journal.exists else { return false }
        let previous = try previousRelease()
        let changes = previous.map(Self.changes(of:)) ?? []
        if previous?.unreadableCatalog != nil {
            // Before the journal exists: killed after it, the next opening still adopts them.
            do {
                let marker = try FileSystem.openForAppending(root + "/" + Self.adoptsOriginalsMarker)
                FileSystem.close(marker)
            } catch { throw error.libraryError("convert the library") }
        }
        do { try LibraryJournal.create(atLibraryRoot: root, changes: changes) } catch {
            if error.errno == EEXIST { return false }
            throw error.libraryError("write the library's journal")
        }
        if let reason = previous?.unreadableCatalog {
            moveAside(["catalog.sqlite", "catalog.sqlite-wal", "catalog.sqlite-shm", "catalog.sqlite-checked"])
            backend.notice(
                "The library's catalog could not be read (\(reason)) and it had no journal: its photos are recovered into the album \"\(CatalogRepair.recoveredAlbumTitle)\"; the old catalog is kept in \(root)/previous-release."
            )
            return true
        }
        if let previous, previous.isCurrentIndex {
            // The index holds what the new journal holds: it is marked as this journal's, whole.
            // Not marked: the index is rebuilt from the new journal, which holds the same.
            if let db = try? Database(path: root + "/catalog.sqlite", create: false),
                let identity = try? backend.journal.identity()
            {
                let index = CatalogIndex(db: db, path: root + "/catalog.sqlite")
                // Not marked (as above): rebuilt from the journal.
                try? index.db.immediateTransaction {
                    try index.setState(CatalogSchema.StateKey.journalID, .text(identity.id))
                    try index.markApplied(allOf: backend.journal)
                }
            }
            backend.notice(
                "The library's journal was missing; it was written anew from its catalog (\(changes.count) records).")
        } else if previous != nil {
            movePreviousReleaseAside()
            backend.notice(
                "The library was converted to this release's format (\(changes.count) records); the previous files are kept in \(root)/previous-release."
            )
        }
        return false
    }

    /// Finishes a conversion killed after its journal was written and before the previous
    /// release's files were moved aside (its `journal/saves.jsonl` still in place, so the catalog
    /// beside it is the previous release's too: no index is built before they move). Called at
    /// every writable opening; one `stat` when there is nothing to do.
    func finishInterruptedConversion() throws {
        guard FileSystem.fileStatus(atPath: root + "/journal/saves.jsonl", following: false) != nil else { return }
        let lock: FileSystem.Descriptor
        do {
            lock = try FileSystem.openDirectory(root)
            try FileSystem.lock(lock, wait: true)
        } catch { throw error.libraryError("open the library") }
        defer { FileSystem.close(lock) }
        guard FileSystem.fileStatus(atPath: root + "/journal/saves.jsonl", following: false) != nil else { return }
        movePreviousReleaseAside()
        backend.notice(
            "The library's conversion to this release's format was finished; the previous files are kept in \(root)/previous-release."
        )
    }

    /// The previous release's catalog, journal and snapshot, into `previous-release/`: the
    /// journal last, so that while it is in place the rest is still to move.
    private func movePreviousReleaseAside() {
        moveAside([
            "catalog.sqlite", "catalog.sqlite-wal", "catalog.sqlite-shm", "catalog.sqlite-journal",
            "catalog.sqlite-checked",
        ])
        moveAside(["snapshots/catalog.sqlite", "journal/saves.jsonl"])
    }

    /// A file in the library's folder while the files of a library converted without a readable
    /// catalog are still to be adopted.
    static let adoptsOriginalsMarker = "adopting-originals"

    /// Moves files of the previous release into `previous-release/` (kept for the user).
    private func moveAside(_ names: [String]) {
        let folder = root + "/previous-release"
        for name in names where FileSystem.fileStatus(atPath: root + "/" + name, following: false) != nil {
            // A file that cannot be moved stays where it is: the new library no longer reads it.
            _ = try? FileSystem.makeDirectory(atPath: folder)
            // A file that cannot be moved aside stays in place, unread by the new library.
            try? FileSystem.rename(root + "/" + name, to: folder + "/" + (name as NSString).lastPathComponent)
        }
    }

    /// The previous release's content, or `nil` for a library without any.
    private func previousRelease() throws -> Contents? {
        let catalog = root + "/catalog.sqlite"
        let oldJournal = root + "/journal/saves.jsonl"
        let hasOldJournal = FileSystem.fileStatus(atPath: oldJournal, following: false) != nil
        var contents: Contents?
        var unreadable: String?
        if FileSystem.fileStatus(atPath: catalog, following: false) != nil {
            do { contents = try read(catalogAt: catalog) } catch let error as SQLiteError where error.isBusy {
                // Another program holds it (the sqlite3 shell in a transaction): nothing is
                // converted now, and nothing changed.
                throw AlbumError(
                    .libraryBusy,
                    "The catalog \(catalog) is in use by another program (\(error.message)); nothing was changed. Try again once it is closed."
                )
            } catch {
                // An unreadable old catalog: the old journal is replayed instead (see the type), or
                // without one, the library's files are adopted.
                unreadable = AlbumError.wrap(error).message
            }
        }
        guard contents != nil || hasOldJournal || unreadable != nil else { return nil }
        var result = contents ?? Contents()
        if !hasOldJournal { result.unreadableCatalog = unreadable }
        if hasOldJournal { replay(oldJournalAt: oldJournal, into: &result, onlyMissing: contents != nil) }
        return result
    }

    /// An old catalog's albums, remembered titles, ready assets and memberships (a current index's
    /// too: the same tables).
    private func read(catalogAt path: String) throws -> Contents {
        let db = try Database(path: path, mode: .readOnly, verifyingPages: false)
        guard try db.row("PRAGMA application_id")?.integer(0) == CatalogSchema.applicationID else {
            throw AlbumError(.libraryCorrupt, "\(path) is not an AlbumKit catalog.")
        }
        var contents = Contents()
        contents.isCurrentIndex = try db.row("PRAGMA user_version")?.integer(0) == CatalogSchema.version
        for row in try db.rows("SELECT id, title, created_at FROM album ORDER BY created_at, rowid") {
            guard let id = row.text(0), let title = row.text(1) else { continue }
            contents.albums.append((id, title, row.real(2) ?? 0))
        }
        for row in try db.rows("SELECT title_key, album_id FROM remembered_album") {
            guard let key = row.text(0), let album = row.text(1) else { continue }
            contents.remembered.append((key, album))
        }
        for row in try db.rows(
            """
            SELECT id, path, original_name, byte_size, sha256, kind, format, added_at, metadata FROM asset
            WHERE state = 'ready' ORDER BY added_at, rowid
            """)
        {
            guard let id = row.text(0), let path = row.text(1), let sha = row.text(4) else { continue }
            contents.add(
                .init(
                    id: id, path: path, originalName: row.text(2), byteSize: row.integer(3) ?? 0, sha256: sha,
                    kind: row.text(5) ?? "photo", format: row.text(6) ?? "jpeg", addedAt: row.real(7) ?? 0,
                    metadata: row.text(8)))
        }
        for row in try db.rows(
            """
            SELECT m.album_id, m.asset_id, m.added_at FROM album_asset m JOIN asset s ON s.id = m.asset_id
            WHERE s.state = 'ready' ORDER BY m.album_id, m.position
            """)
        {
            guard let album = row.text(0), let asset = row.text(1) else { continue }
            contents.memberships.append((album, asset, row.real(2) ?? 0))
        }
        return contents
    }

    /// Replays the previous release's journal (`saves.jsonl`, one JSON object per line): all of
    /// it, or (`onlyMissing`) only the saves of assets the old catalog lacks whose files are there
    /// with their recorded size, and not deleted later.
    private func replay(oldJournalAt path: String, into contents: inout Contents, onlyMissing: Bool) {
        // An unreadable old journal adds nothing; the notice says how many records were converted.
        guard let (file, size) = try? FileSystem.openForReading(path) else { return }
        defer { FileSystem.close(file) }
        // Unreadable (as above): adds nothing.
        guard let bytes = try? FileSystem.readAll(file, from: 0, size: size) else { return }
        var albums: [String: Int] = [:]
        for (index, album) in contents.albums.enumerated() { albums[album.id] = index }
        var deleted = Set<String>()
        var saves: [CatalogChange.SavedAsset] = []
        // Memberships in the order the journal made and unmade them.
        var memberships: [(album: String, asset: String, at: Double)] = []
        // Which album each title led to (the previous release remembered the album a save or a
        // creation resolved, and a rename moved its title).
        var remembered: [String: String] = [:]
        for line in bytes.split(separator: 0x0A) {
            // A field of the wrong type counts as missing (a torn or foreign line of the old journal).
            guard let object = JSONObjectReader(line), let op = try? object.string("op") else { continue }
            let asset = (try? object.string("asset")) ?? nil
            let album = (try? object.string("album")) ?? nil
            let title = (try? object.string("title")) ?? nil
            let at = ((try? object.double("at")) ?? nil) ?? 0
            switch op {
            case "save":
                // (fields as above)
                guard let asset, let relative = (try? object.string("path")) ?? nil,
                    let bytes = (try? object.int64("size")) ?? nil, let sha = (try? object.string("sha256")) ?? nil
                else { continue }
                // (fields as above)
                let added = ((try? object.double("added")) ?? nil) ?? at
                let name = (try? object.string("name")) ?? nil
                deleted.remove(asset)
                saves.append(
                    .init(
                        id: asset, path: relative, originalName: name, byteSize: bytes, sha256: sha, kind: "photo",
                        format: "jpeg", addedAt: added, metadata: nil))
                if let album, !memberships.contains(where: { $0.album == album && $0.asset == asset }) {
                    memberships.append((album, asset, at))
                }
                if !onlyMissing, let album, let title {
                    if albums[album] == nil {
                        albums[album] = contents.albums.count
                        contents.albums.append((album, title, at))
                    }
                    remembered[AlbumTitle.key(of: title)] = album
                }
            case "createAlbum" where !onlyMissing:
                guard let album, let title, albums[album] == nil else { continue }
                albums[album] = contents.albums.count
                contents.albums.append((album, title, at))
                remembered[AlbumTitle.key(of: title)] = album
            case "renameAlbum" where !onlyMissing:
                guard let album, let title, let index = albums[album] else { continue }
                contents.albums[index].title = title
                remembered = remembered.filter { $0.value != album }
                remembered[AlbumTitle.key(of: title)] = album
            case "deleteAlbum":
                memberships.removeAll { $0.album == album }
                guard !onlyMissing, let album, let index = albums.removeValue(forKey: album) else { continue }
                contents.albums[index].id = ""
            case "removeFromAlbum":
                memberships.removeAll { $0.album == album && $0.asset == asset }
            case "deleteAsset":
                if let asset { deleted.insert(asset) }
            default:
                continue
            }
        }
        contents.albums.removeAll { $0.id.isEmpty }
        if !onlyMissing { contents.remembered = remembered.map { ($0.key, $0.value) }.sorted { $0.0 < $1.0 } }
        var added = Set<String>()
        var seen = Set<String>()
        for asset in saves.reversed() where !deleted.contains(asset.id) && seen.insert(asset.id).inserted {
            if onlyMissing && contents.assets[asset.id] != nil { continue }
            let file = root + "/" + asset.path
            guard let status = FileSystem.fileStatus(atPath: file, following: false),
                Int64(status.size) == asset.byteSize,
                // Only files that are there, whole and readable media are taken back (see above).
                let reader = try? MediaReader(.path(FileSystemPath(file)))
            else { continue }
            var described = asset
            described.kind = reader.metadata.kind.rawValue
            described.format = reader.metadata.format.rawValue
            described.metadata = reader.metadata.jsonText
            contents.add(described)
            added.insert(asset.id)
        }
        contents.assetOrder.sort { (contents.assets[$0]?.addedAt ?? 0) < (contents.assets[$1]?.addedAt ?? 0) }
        let albumIDs = Set(contents.albums.map(\.id))
        for membership in memberships where added.contains(membership.asset) && albumIDs.contains(membership.album) {
            contents.memberships.append(membership)
        }
    }

    /// The records that make a library of `contents`.
    private static func changes(of contents: Contents) -> [CatalogChange] {
        var changes: [CatalogChange] = contents.albums.map {
            .createAlbum(id: $0.id, title: $0.title, createdAt: $0.createdAt)
        }
        let titles = Dictionary(
            contents.albums.map { (AlbumTitle.key(of: $0.title), $0.title) }, uniquingKeysWith: { a, _ in a })
        let albumIDs = Set(contents.albums.map(\.id))
        for (key, album) in contents.remembered where albumIDs.contains(album) {
            changes.append(.rememberAlbum(id: album, title: titles[key] ?? key))
        }
        for id in contents.assetOrder { if let asset = contents.assets[id] { changes.append(.save(asset)) } }
        // Consecutive memberships of one album added at the same time make one record.
        var run: (album: String, assets: [String], at: Double)?
        for membership in contents.memberships
        where albumIDs.contains(membership.album) && contents.assets[membership.asset] != nil {
            if let current = run, current.album == membership.album, current.at == membership.at {
                run?.assets.append(membership.asset)
                continue
            }
            if let current = run {
                changes.append(.addToAlbum(album: current.album, assets: current.assets, at: current.at))
            }
            run = (membership.album, [membership.asset], membership.at)
        }
        if let current = run {
            changes.append(.addToAlbum(album: current.album, assets: current.assets, at: current.at))
        }
        return changes
    }
}
