import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `album repair`: rebuilds a catalog library's catalog from whatever survived — the damaged
/// catalog (every row still readable), the last snapshot, the save journal, and the files in
/// `originals/` — without deleting anything.
///
/// Merge order: what survived of the catalog (its rows may be garbled), then the snapshot, then the
/// journal replayed in order (saves, album creations, renames, deletions; each idempotent), each
/// later source trusted more for what it records. An asset is kept from the first of its versions
/// (journal, snapshot, catalog) whose file is there with its SHA-256; files no record names are
/// added to the library without an album. The damaged catalog is moved to `damaged/<date>/`.
struct CatalogRepair {
    let root: URL

    struct Asset {
        var id: String
        var path: String
        var name: String?
        var kind: String?
        var format: String?
        var size: Int64
        var sha256: String
        var added: Double
        var metadata: String?
    }
    struct Album {
        var id: String
        var title: String
        var created: Double
    }
    struct Member {
        var asset: String
        var position: Int64
        var added: Double
    }

    private var assets: [String: Asset] = [:]
    /// Other versions of an asset (less trusted sources), tried when the chosen one's file does not match.
    private var alternatives: [String: [Asset]] = [:]
    private var source: [String: String] = [:]
    private var albums: [String: Album] = [:]
    private var members: [String: [String: Member]] = [:]
    private var remembered: [String: String] = [:]
    private var notRestored: [String] = []

    init(root: URL) { self.root = root.standardizedFileURL }

    /// Repairs the library at `url`.
    ///
    /// - Throws: `.libraryNotFound` when there is no library; `.libraryCorrupt` when the catalog
    ///   is another application's database or from a newer AlbumKit (nothing is changed then).
    static func run(at url: URL) throws -> RepairReport {
        var repair = CatalogRepair(root: url)
        return try repair.run()
    }

    private mutating func run() throws -> RepairReport {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw AlbumError(.libraryNotFound, "There is no AlbumKit library at \(root.path); nothing to repair.")
        }
        // Without SQLite every catalog would look unreadable: stop before judging (or moving) any.
        try Database.loadSQLite(toOpen: root.path)
        try CatalogBackend.refuseLinkedCatalog(CatalogBackend.catalogPath(root))
        try SHA256Hasher.requireAvailable(to: "repair the library \(root.path)")
        let catalog = CatalogBackend.catalogPath(root)
        // A healthy catalog stays: only files no asset names are added to it. A catalog found
        // damaged, lost, or disagreeing with the journal is rebuilt; any other failure (busy,
        // permissions) is reported as it is.
        do {
            let backend = try CatalogBackend.open(at: root, create: false)
            let disagreements = try backend.catalogDisagreements()
            // Saves the journal records that the catalog lacks: with their files there, the
            // catalog lost them and is rebuilt (below); with their files gone, the journal lost
            // their deletion, which is recorded now (else verify would ask for a repair for ever).
            let onlyInJournal = try backend.assetsOnlyInTheJournal()
            if disagreements.isEmpty && !onlyInJournal.contains(where: { hasFile($0.path) }) {
                let deletions = try recordDeletionsTheJournalLost(onlyInJournal)
                // Opening looks for a crashed saver's hidden files only while its owner file says
                // it may have left some; repair looks everywhere.
                backend.removeStagedLeftovers()
                var report = try adoptStrays(into: backend)
                // The journal must be able to rebuild what the catalog holds (the files just
                // adopted, or records a damaged journal lost).
                report.journalRecordsAdded = try backend.appendJournalGaps() + deletions
                return report
            }
        } catch let error as AlbumError where error.code == .libraryCorrupt || error.code == .libraryNotFound {
            guard try error.code == .libraryCorrupt || CatalogBackend.lostCatalogReason(root) != nil else {
                throw error
            }
        }
        try refuseIfNotOurs(catalog)

        if FileManager.default.fileExists(atPath: catalog), let survived = read(catalogAt: catalog) {
            merge(survived, from: "catalog")
        }
        if let snapshot = read(catalogAt: root.appendingPathComponent("snapshots/catalog.sqlite").path) {
            merge(snapshot, from: "snapshot")
        }
        let journal = SaveJournal(libraryRoot: root.path)
        do { replay(try journal.records()) } catch {
            notRestored.append("the journal could not be read (\(error)); restored from the catalog and snapshot only")
        }
        try checkFiles()
        adoptUnnamedFiles()
        let kept = try replaceCatalog(journalLength: journal.length())
        let backend = try CatalogBackend.open(at: root, create: false)
        // A fresh snapshot helps the next repair; the journal alone suffices if it cannot be taken.
        try? backend.takeSnapshot()
        var report = report(wasHealthy: false, keptAt: kept)
        // What the rebuilt catalog holds, the journal records; what it could not restore for want
        // of the file (reported in notRestored), the journal stops calling saved.
        report.journalRecordsAdded =
            try backend.appendJournalGaps() + recordDeletionsTheJournalLost(try backend.assetsOnlyInTheJournal())
        return report
    }

    /// Records as deleted the assets of `onlyInJournal` whose files are gone: the journal lost
    /// their deletion (or the file was lost and reported). Returns how many it recorded.
    private func recordDeletionsTheJournalLost(_ onlyInJournal: [(id: String, path: String?)]) throws -> Int {
        let gone = onlyInJournal.filter { !hasFile($0.path) }
        guard !gone.isEmpty else { return 0 }
        let now = Date().timeIntervalSince1970
        do {
            try SaveJournal(libraryRoot: root.path).append(
                gone.map { SaveJournal.Record(op: .deleteAsset, asset: $0.id, at: now) })
        } catch { throw error.libraryError("write the library's journal") }
        return gone.count
    }

    /// Whether the library holds a file at `relative` (a path below its root).
    private func hasFile(_ relative: String?) -> Bool {
        relative.map { FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path) } ?? false
    }

    // MARK: Sources

    private struct Contents {
        var assets: [Asset] = []
        var albums: [Album] = []
        var members: [(album: String, member: Member)] = []
        var remembered: [(key: String, album: String)] = []
    }

    /// Refuses another application's database, or a catalog from a newer AlbumKit.
    private func refuseIfNotOurs(_ path: String) throws {
        guard let db = try? Database(path: path, mode: .readOnly, verifyingPages: false),
            let row = try? db.row(
                "SELECT (SELECT application_id FROM pragma_application_id), (SELECT user_version FROM pragma_user_version)"
            )
        else { return }
        let id = row.integer(0) ?? 0
        if id != 0 && id != CatalogSchema.applicationID {
            throw AlbumError(
                .libraryCorrupt,
                "\(path) is another application's database, not an AlbumKit catalog; repair changes nothing.")
        }
        if (row.integer(1) ?? 0) > Int64(CatalogSchema.migrations.count) {
            throw AlbumError(
                .libraryCorrupt, "\(path) was written by a newer AlbumKit; update AlbumKit. Repair changed nothing.")
        }
    }

    /// Every row still readable from the catalog at `path` (a damaged page loses the rows after it
    /// in that table only; the journal has them).
    private func read(catalogAt path: String) -> Contents? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        var db: Database?
        // Pages failing their checksum are read as they are: SQLite's own checks skip what is
        // unreadable, and every row salvaged is checked against the files and the journal.
        for mode in [Database.OpenMode.readOnly, .immutable] where db == nil {
            db = try? Database(path: path, mode: mode, verifyingPages: false)
        }
        guard let db else { return nil }
        var contents = Contents()
        func each(_ sql: String, _ body: (Row) -> Void) {
            guard let statement = try? db.statement(sql) else { return }
            while let row = try? statement.step() { body(row) }
        }
        each(
            "SELECT id, path, original_name, kind, format, byte_size, sha256, added_at, metadata FROM asset WHERE state = 'ready'"
        ) { row in
            guard let id = row.text(0), let path = row.text(1), let size = row.integer(5), let sha = row.text(6) else {
                return
            }
            contents.assets.append(
                Asset(
                    id: id, path: path, name: row.text(2), kind: row.text(3), format: row.text(4), size: size,
                    sha256: sha, added: row.real(7) ?? 0, metadata: row.text(8)))
        }
        each("SELECT id, title, created_at FROM album") { row in
            guard let id = row.text(0), let title = row.text(1) else { return }
            contents.albums.append(Album(id: id, title: title, created: row.real(2) ?? 0))
        }
        each("SELECT album_id, asset_id, position, added_at FROM album_asset") { row in
            guard let album = row.text(0), let asset = row.text(1) else { return }
            contents.members.append(
                (album, Member(asset: asset, position: row.integer(2) ?? 0, added: row.real(3) ?? 0)))
        }
        each("SELECT title_key, album_id FROM remembered_album") { row in
            guard let key = row.text(0), let album = row.text(1) else { return }
            contents.remembered.append((key, album))
        }
        return contents
    }

    /// Adds what `contents` holds; a later source's version of an asset is preferred, the earlier
    /// one kept as an alternative. Albums whose identifier or title look garbled are skipped.
    private mutating func merge(_ contents: Contents, from origin: String) {
        for asset in contents.assets where Self.isPlausible(asset) { prefer(asset, from: origin) }
        for album in contents.albums where Self.isPlausible(album) { albums[album.id] = album }
        for (album, member) in contents.members where albums[album] != nil {
            members[album, default: [:]][member.asset] = member
        }
        for (key, album) in contents.remembered { remembered[key] = album }
    }

    private mutating func prefer(_ asset: Asset, from origin: String) {
        if let current = assets[asset.id] { alternatives[asset.id, default: []].insert(current, at: 0) }
        assets[asset.id] = asset
        source[asset.id] = origin
    }

    /// An asset read from a damaged file: its file must be named after its identifier, as
    /// AlbumKit names every original (`originals/xx/<id>.<ext>`), so two rows never claim one file.
    private static func isPlausible(_ asset: Asset) -> Bool {
        let name = (asset.path as NSString).lastPathComponent
        return asset.path == "originals/\(asset.id.prefix(2))/\(name)"
            && (name as NSString).deletingPathExtension == asset.id && UUID(uuidString: asset.id) != nil
    }

    /// An album read from a damaged file: its identifier must be a UUID and its title valid.
    private static func isPlausible(_ album: Album) -> Bool {
        UUID(uuidString: album.id) != nil && album.id == album.id.lowercased() && !album.title.contains("\u{FFFD}")
            && (try? AlbumTitle(album.title)) != nil
    }

    /// Replays the journal in order; every step is idempotent. A commit whose records a crash cut
    /// short was never acknowledged (nor kept when the library was next opened): it is skipped.
    private mutating func replay(_ records: [SaveJournal.Record]) {
        let isWhole = SaveJournal.wholeCommits(in: records)
        for record in records where isWhole(record) {
            switch record.op {
            case .createAlbum:
                guard let id = record.album, let title = record.title else { continue }
                if albums[id] == nil { albums[id] = Album(id: id, title: title, created: record.at ?? 0) }
            case .renameAlbum:
                guard let id = record.album, let title = record.title else { continue }
                if albums[id] == nil { albums[id] = Album(id: id, title: title, created: record.at ?? 0) }
                albums[id]?.title = title
            case .deleteAlbum:
                guard let id = record.album else { continue }
                albums[id] = nil
                members[id] = nil
            case .removeFromAlbum:
                guard let id = record.asset, let album = record.album else { continue }
                members[album]?[id] = nil
            case .deleteAsset:
                guard let id = record.asset else { continue }
                // A deletion whose process died before it removed the file never finished (it was
                // never acknowledged): the photo stays, in its albums.
                if let owner = record.owner, hasFile(assets[id]?.path),
                    !ProcessOwner.isAlive(owner, in: root.appendingPathComponent("owners").path)
                {
                    continue
                }
                drop(id)
            case .save:
                guard let id = record.asset, let path = record.path, let size = record.size, let sha = record.sha256
                else { continue }
                if source[id] != "journal" {
                    // The journal is trusted most for what it records; the rest comes from the file.
                    let known = assets[id]
                    var asset = Asset(
                        id: id, path: path, name: record.name, size: size, sha256: sha, added: record.added ?? 0)
                    if let known, known.path == path, known.sha256 == sha {
                        (asset.kind, asset.format, asset.metadata) = (known.kind, known.format, known.metadata)
                    }
                    prefer(asset, from: "journal")
                }
                guard let album = record.album else { continue }
                if albums[album] == nil {
                    albums[album] = Album(id: album, title: record.title ?? "Album", created: record.at ?? 0)
                }
                if members[album]?[id] == nil {
                    let last = members[album]?.values.map(\.position).max() ?? 0
                    members[album, default: [:]][id] = Member(asset: id, position: last + 1, added: record.at ?? 0)
                }
            }
        }
    }

    /// Keeps an asset only when its file is there with its SHA-256; fills in what the journal does
    /// not record (kind, format, metadata) from the file itself.
    private mutating func checkFiles() throws {
        for (id, chosen) in assets.sorted(by: { $0.key < $1.key }) {
            var failure: String?
            var kept: Asset?
            for asset in [chosen] + (alternatives[id] ?? []) {
                let path = root.appendingPathComponent(asset.path).path
                guard let sha = try? Self.sha256(ofFileAt: path) else {
                    failure = failure ?? "its file \(asset.path) is missing"
                    continue
                }
                guard sha == asset.sha256, asset.size >= 0 else {
                    failure = failure ?? "\(asset.path) no longer has its SHA-256 (changed on disk)"
                    continue
                }
                kept = asset
                break
            }
            guard let kept else {
                notRestored.append("asset \(id) (\(chosen.name ?? chosen.path)): \(failure ?? "no usable record")")
                drop(id)
                continue
            }
            assets[id] = kept
            // Rows of a damaged catalog may be garbled anywhere: what the file says wins.
            let trusted = source[id] == "snapshot" && ["photo", "video"].contains(kept.kind ?? "")
            if !trusted || kept.format == nil || kept.metadata == nil {
                fillMetadata(of: id, path: root.appendingPathComponent(kept.path).path)
            }
        }
    }

    private mutating func drop(_ id: String) {
        assets[id] = nil
        source[id] = nil
        for album in members.keys { members[album]?[id] = nil }
    }

    private mutating func fillMetadata(of id: String, path: String) {
        guard let metadata = try? MediaReader(.path(FileSystemPath(path))).metadata else { return }
        assets[id]?.kind = metadata.kind.rawValue
        assets[id]?.format = metadata.format.rawValue
        assets[id]?.metadata = metadata.jsonText
    }

    /// Files under `originals/` that no source names are added to the library (no album, no
    /// original name); hidden staging files are left for recovery.
    private mutating func adoptUnnamedFiles() {
        let named = Set(assets.values.map(\.path))
        let originals = root.appendingPathComponent("originals").path
        for shard in ((try? FileSystem.names(inDirectoryAt: originals)) ?? []).sorted() {
            for name in ((try? FileSystem.names(inDirectoryAt: originals + "/" + shard)) ?? []).sorted()
            where !name.hasPrefix(".") {
                let relative = "originals/\(shard)/\(name)"
                guard !named.contains(relative) else { continue }
                let path = originals + "/" + shard + "/" + name
                guard let sha = try? Self.sha256(ofFileAt: path),
                    let reader = try? MediaReader(.path(FileSystemPath(path)))
                else {
                    notRestored.append("\(relative) is not a photo or video AlbumKit can read; left in place")
                    continue
                }
                let id = (name as NSString).deletingPathExtension.lowercased()
                guard assets[id] == nil else {
                    notRestored.append("\(relative): another asset has its identifier; left in place")
                    continue
                }
                let info = (try? FileSystem.status(atPath: path)) ?? nil
                let added = info.map { Double($0.modificationTime.tv_sec) } ?? Date().timeIntervalSince1970
                assets[id] = Asset(id: id, path: relative, size: Int64(reader.size), sha256: sha, added: added)
                source[id] = "originals"
                fillMetadata(of: id, path: path)
            }
        }
    }

    private static func sha256(ofFileAt path: String) throws -> String {
        let (file, _) = try FileSystem.openForReading(path)
        defer { FileSystem.close(file) }
        return try FileSystem.sha256(of: file)
    }

    // MARK: Writing

    /// Builds the new catalog beside the old one, moves the old one (and its WAL) to
    /// `damaged/<date>/`, and renames the new one into place. Returns where the old one went.
    private func replaceCatalog(journalLength: Int64) throws -> String? {
        let catalog = CatalogBackend.catalogPath(root)
        let rebuilt = root.appendingPathComponent("catalog.rebuild.sqlite").path
        for suffix in ["", "-wal", "-shm", "-journal"] { try FileSystem.unlink(rebuilt + suffix) }
        try write(to: rebuilt, journalLength: journalLength)

        var keptAt: String?
        let existing = ["", "-wal", "-shm"].filter { FileManager.default.fileExists(atPath: catalog + $0) }
        if !existing.isEmpty {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime]
            let stamp = formatter.string(from: Date()).replacingOccurrences(of: ":", with: "-")
            let directory = root.appendingPathComponent("damaged/\(stamp)").path
            try FileSystem.makeDirectory(atPath: directory)
            for suffix in existing {
                try FileSystem.rename(catalog + suffix, to: directory + "/catalog.sqlite" + suffix)
            }
            keptAt = directory
        }
        try FileSystem.rename(rebuilt, to: catalog)
        // Checkpointed and closed: what is left of its WAL is empty.
        for suffix in ["-wal", "-shm"] { try FileSystem.unlink(rebuilt + suffix) }
        let folder = try FileSystem.openDirectory(root.path)
        defer { FileSystem.close(folder) }
        try FileSystem.fsync(folder)
        return keptAt
    }

    private func write(to path: String, journalLength: Int64) throws {
        let db: Database
        do {
            db = try Database(path: path, create: true)
            try CatalogSchema.prepare(db, path: path, busyTimeout: 5_000)
        } catch {
            throw AlbumError.library(error, "write the repaired catalog", path: path)
        }
        do {
            try db.immediateTransaction {
                for asset in assets.values.sorted(by: { ($0.added, $0.id) < ($1.added, $1.id) }) {
                    try db.run(
                        """
                        INSERT INTO asset (id, state, kind, format, path, original_name, byte_size, sha256, added_at, owner, metadata)
                        VALUES (?, 'ready', ?, ?, ?, ?, ?, ?, ?, NULL, ?)
                        """,
                        [
                            .text(asset.id), .text(asset.kind == "video" ? "video" : "photo"),
                            .text(asset.format ?? "unknown"),
                            .text(asset.path), SQLValue(asset.name), .integer(asset.size), .text(asset.sha256),
                            .real(asset.added), SQLValue(asset.metadata),
                        ])
                }
                for album in albums.values.sorted(by: { ($0.created, $0.id) < ($1.created, $1.id) }) {
                    let title = try? AlbumTitle(album.title)
                    try db.run(
                        "INSERT INTO album (id, title, title_key, created_at) VALUES (?, ?, ?, ?)",
                        [.text(album.id), .text(album.title), .text(title?.key ?? album.title), .real(album.created)])
                    for member in (members[album.id] ?? [:]).values.sorted(by: { $0.position < $1.position })
                    where assets[member.asset] != nil {
                        try db.run(
                            "INSERT INTO album_asset (album_id, asset_id, position, added_at) VALUES (?, ?, ?, ?)",
                            [.text(album.id), .text(member.asset), .integer(member.position), .real(member.added)])
                    }
                }
                for (key, album) in remembered where albums[album] != nil {
                    try db.run(
                        "INSERT OR REPLACE INTO remembered_album (title_key, album_id) VALUES (?, ?)",
                        [.text(key), .text(album)])
                }
                try db.run(
                    "INSERT OR REPLACE INTO library_state (key, value) VALUES (?, ?)",
                    [.text(CatalogSchema.StateKey.journalLength), .integer(journalLength)])
            }
            try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        } catch {
            throw AlbumError.library(error, "write the repaired catalog", path: path)
        }
    }

    /// Adds files no asset names to a healthy catalog.
    private mutating func adoptStrays(into backend: CatalogBackend) throws -> RepairReport {
        let strays = try backend.strayFiles()
        let now = Date().timeIntervalSince1970
        var adopted = 0
        for relative in strays {
            let path = root.appendingPathComponent(relative).path
            guard let sha = try? Self.sha256(ofFileAt: path), let reader = try? MediaReader(.path(FileSystemPath(path)))
            else {
                notRestored.append("\(relative) is not a photo or video AlbumKit can read; left in place")
                continue
            }
            let metadata = reader.metadata.jsonText
            let id = ((relative as NSString).lastPathComponent as NSString).deletingPathExtension.lowercased()
            let inserted = try backend.withDatabase("add the file to the catalog") { db in
                try db.run(
                    """
                    INSERT OR IGNORE INTO asset (id, state, kind, format, path, byte_size, sha256, added_at, metadata)
                    VALUES (?, 'ready', ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(id), .text(reader.metadata.kind.rawValue), .text(reader.metadata.format.rawValue),
                        .text(relative), .integer(Int64(reader.size)), .text(sha), .real(now), .text(metadata),
                    ])
            }
            if inserted == 1 { adopted += 1 } else { notRestored.append("\(relative): its identifier is taken") }
        }
        let counts = try backend.withDatabase("read the catalog") { db in
            (
                try db.row("SELECT count(*) FROM asset WHERE state = 'ready'")?.integer(0) ?? 0,
                try db.row("SELECT count(*) FROM album")?.integer(0) ?? 0
            )
        }
        return RepairReport(
            wasHealthy: true, restoredAssets: Int(counts.0), restoredAlbums: Int(counts.1),
            sources: adopted > 0 ? ["originals": adopted] : [:], notRestored: notRestored,
            damagedCatalogKeptAt: nil)
    }

    private func report(wasHealthy: Bool, keptAt: String?) -> RepairReport {
        var sources: [String: Int] = [:]
        for origin in source.values { sources[origin, default: 0] += 1 }
        return RepairReport(
            wasHealthy: wasHealthy, restoredAssets: assets.count, restoredAlbums: albums.count, sources: sources,
            notRestored: notRestored, damagedCatalogKeptAt: keptAt)
    }
}
