import AlbumKitCore
import Foundation

/// `album repair`: the index rebuilt from the snapshot and the journal, and the files under
/// `originals/` that no record names adopted into the album "Recovered", with their metadata.
/// Nothing in `originals/` is deleted but hidden staging files of dead processes.
enum CatalogRepair {
    /// The album adopted files go into.
    static let recoveredAlbumTitle = "Recovered"

    /// `progress` hears of each file no record names as it is read (adopted or left in place).
    static func run(at url: URL, progress: (@Sendable (VerificationProgress) -> Void)? = nil) throws -> RepairReport {
        let root = url.standardizedFileURL
        guard FileSystem.fileStatus(atPath: root.path) != nil else {
            throw AlbumError(.libraryNotFound, "There is no AlbumKit library at \(root.path).")
        }
        try SHA256Hasher.requireAvailable(to: "repair the library \(root.path)")
        let backend = try CatalogBackend.open(at: root, create: false)
        guard !backend.isReadOnly else {
            throw AlbumError(
                .libraryUnwritable, "Cannot repair \(root.path): it is on read-only media or not writable.")
        }
        // An index that cannot be checked counts as damaged: repair rebuilds it.
        let problems = (try? backend.indexDisagreements()) ?? ["the catalog cannot be checked"]
        let damaged = problems.contains { $0.hasPrefix("the catalog") }
        var keptAt: String?
        try backend.withIndex("repair the library") { connection in
            try backend.rebuild(
                &connection, because: damaged ? .init(reason: "repair was asked for: \(problems[0])") : nil, force: true
            )
        }
        if damaged { keptAt = backend.takeNotices().compactMap(Self.keptFolder).first }
        backend.removeStagedLeftovers()
        let (adopted, notRestored) = try adoptStrayFiles(into: backend, progress: progress)
        // The damaged records are dealt with: their files (if any) adopted above. Recorded, so that
        // `verify` stops reporting them and a rebuild knows it too. A journal unreadable here
        // acknowledges nothing: `verify` keeps reporting them (nothing hidden).
        var damagedRecords = Set(((try? backend.journal.forEachRecord { _ in }.damaged) ?? []).map(\.offset))
        // And the records the rebuild refused to apply (a purge of photos not in recently deleted).
        damagedRecords.formUnion(
            // (An index unreadable here hides nothing: `verify` keeps reporting them, as above.)
            (try? backend.withIndex("read the catalog") { connection in
                try connection.index!.db.rows("SELECT offset FROM journal_damage").compactMap { $0.integer(0) }
            }) ?? [])
        if !damagedRecords.isEmpty {
            try backend.record("note the repaired records") { recorder in
                let known = Set(
                    try recorder.db.rows("SELECT offset FROM acknowledged_damage").compactMap { $0.integer(0) })
                for offset in damagedRecords.sorted() where !known.contains(offset) {
                    try recorder.record(.acknowledgeDamage(offset: offset))
                }
            }
        }
        let counts = try backend.withIndex("read the catalog") { connection in
            (
                try connection.index!.db.row("SELECT count(*) FROM asset")?.integer(0) ?? 0,
                try connection.index!.db.row("SELECT count(*) FROM album")?.integer(0) ?? 0
            )
        }
        var report = RepairReport(
            wasHealthy: !damaged && adopted == 0 && problems.isEmpty, restoredAssets: Int(counts.0),
            restoredAlbums: Int(counts.1), sources: ["journal": Int(counts.0) - adopted, "originals": adopted],
            notRestored: notRestored, damagedCatalogKeptAt: keptAt)
        report.journalRecordsAdded = adopted
        return report
    }

    private static func keptFolder(_ notice: String) -> String? {
        guard let range = notice.range(of: "the old catalog is kept in ") else { return nil }
        return String(notice[range.upperBound...].prefix { $0 != ")" })
    }

    /// Adopts every file no record names into the album "Recovered": one record per file (so a
    /// repair killed midway keeps what it adopted). Files that are not photos or videos AlbumKit
    /// reads, and copies of bytes the library already holds, are left in place and listed.
    @discardableResult
    static func adoptStrayFiles(
        into backend: CatalogBackend, progress: (@Sendable (VerificationProgress) -> Void)? = nil
    ) throws -> (Int, [String]) {
        var adopted = 0
        let title = try AlbumTitle(recoveredAlbumTitle)
        // Only regular files reached without a link are the library's to adopt (a link in
        // `originals/` leads elsewhere: left in place, and listed).
        var notRestored: [String] = []
        let strays = try backend.strayFiles().compactMap { relative -> (String, Int64)? in
            guard let status = backend.gate.status(of: relative), status.kind == .regular else {
                notRestored.append("\(relative) is not a regular file inside the library; left in place")
                return nil
            }
            return (relative, status.size)
        }
        let counter = VerificationCounter(
            total: strays.count, totalBytes: strays.reduce(0) { $0 + $1.1 }, report: progress)
        for (relative, size) in strays {
            defer { counter.checked(size: size) }
            let path = backend.root.path + "/" + relative
            let reader: MediaReader
            let sha: String
            do {
                reader = try MediaReader(.path(FileSystemPath(path)))
                let (file, _) = try backend.gate.openFileForReading(relative)
                defer { FileSystem.close(file) }
                sha = try FileSystem.sha256(of: file)
            } catch {
                notRestored.append("\(relative) is not a photo or video AlbumKit can read; left in place")
                continue
            }
            let added = (FileSystem.fileStatus(atPath: path, following: false)?.modified.seconds).map(Double.init)
            let name = ((relative as NSString).lastPathComponent as NSString).deletingPathExtension.lowercased()
            let outcome = try backend.record("adopt \(relative)") { recorder -> String? in
                if let existing = try recorder.db.row(
                    "SELECT id FROM asset WHERE sha256 = ? AND byte_size = ?",
                    [.text(sha), .integer(Int64(reader.size))])?
                    .text(0)
                {
                    return "\(relative) holds the same bytes as the asset \(existing); left in place"
                }
                let used = try recorder.db.row("SELECT 1 FROM asset WHERE id = ?", [.text(name)]) != nil
                let id = used || name.isEmpty ? RandomID.make() : name
                try recorder.record(
                    .save(
                        .init(
                            id: id, path: relative, originalName: nil, byteSize: Int64(reader.size), sha256: sha,
                            kind: reader.metadata.kind.rawValue, format: reader.metadata.format.rawValue,
                            addedAt: added ?? Date().timeIntervalSince1970, metadata: reader.metadata.jsonText)))
                let album = try AlbumRequest(title: title).findOrCreate(
                    in: CatalogAlbumStore(recorder: recorder, now: Date().timeIntervalSince1970))
                try recorder.record(.addToAlbum(album: album.id, assets: [id], at: Date().timeIntervalSince1970))
                return nil
            }
            if let outcome { notRestored.append(outcome) } else { adopted += 1 }
        }
        return (adopted, notRestored)
    }
}
