import AlbumKitConformance
import Foundation
import Testing

@testable import AlbumKitCatalog
@testable import AlbumKitCore

#if canImport(Glibc)
    import Glibc
#endif

/// An index or a snapshot is believed only when it proves it was built from a prefix of this
/// library's journal (the digest of its last line, and of every byte when the journal file is
/// another one than it was checked against): one copied from a `cp -a` sibling that went on
/// differently is rebuilt, never shown. A damaged snapshot is set aside once, and anything but a
/// file where the index or the snapshot goes is set aside, never followed or waited on. When the
/// journal lacks records the index held, recovery removes nothing.
@Suite struct CatalogIndexTrustTests {
    func library(_ dir: URL, _ name: String = "Trust") -> URL { dir.appendingPathComponent(name + ".albumlibrary") }

    /// Saves `count` distinct photos into `title`, one save each.
    func save(_ count: Int, into title: String, at url: URL, tag: String, snapshotEvery interval: Int? = nil)
        async throws -> [SavedAsset]
    {
        let backend = try CatalogBackend.open(at: url)
        if let interval { backend.snapshotInterval.withLock { $0 = interval } }
        let library = PhotoLibrary(backend: backend)
        var saved: [SavedAsset] = []
        for n in 0..<count {
            saved.append(
                try await library.album(titled: title).save(
                    .data(Fixture.uniqueJPEG("\(tag)\(n)"), filename: "IMG_\(tag)\(n).JPG")))
        }
        await Blocking.acknowledgedWorkFinished()
        return saved
    }

    func assetIDs(_ url: URL) async throws -> Set<String> {
        Set(try await PhotoLibrary(backend: try CatalogBackend.open(at: url)).assets(limit: 1000).assets.map(\.id))
    }

    /// Marks the index as last written in an earlier boot: the next opening rebuilds it (from the
    /// snapshot when there is one), as after a restart.
    func restart(_ url: URL) throws {
        let db = try Database(path: url.path + "/catalog.sqlite", create: false)
        try db.run("UPDATE index_state SET value = 'an-earlier-boot' WHERE key = 'boot'")
    }

    func replace(_ path: String, with source: String) throws {
        for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try FileManager.default.copyItem(atPath: source, toPath: path)
    }

    func damagedEntries(_ url: URL) -> [String] {
        let root = url.appendingPathComponent("damaged")
        guard let folders = try? FileManager.default.contentsOfDirectory(atPath: root.path) else { return [] }
        return folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: root.path + "/" + folder)) ?? []).map {
                folder + "/" + $0
            }
        }.sorted()
    }

    /// The digest is CRC-64/XZ (its published check value), and continuing it from its value over
    /// any split of the bytes gives the digest of the whole.
    @Test func theJournalDigestIsCRC64XZAndContinues() {
        #expect(JournalDigest(of: Array("123456789".utf8)).value == 0x995D_C9BB_DF19_39FA)
        #expect(JournalDigest().value == 0)
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }
        let whole = JournalDigest(of: bytes)
        for split in [0, 1, 7, 8, 9, 500, 993, 1000] {
            var digest = JournalDigest(continuing: JournalDigest(of: bytes[..<split]).value)
            digest.update(bytes[split...])
            #expect(digest == whole, "split at \(split)")
        }
    }

    /// A library copied with `cp -a`, each copy saving its own photo and then renaming the album
    /// alike (so both journals end with the same record at the same place, give or take): the
    /// index of one copied into the other is rebuilt, no photo of the other copy is shown and none
    /// of this one's is hidden.
    @Test func anIndexFromACopyOfTheLibraryIsRebuiltNotBelieved() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let mine = library(dir, "Mine")
            let base = try await save(2, into: "Trip", at: mine, tag: "b")
            let theirs = library(dir, "Theirs")
            try FileManager.default.copyItem(at: mine, to: theirs)
            let onlyMine = try await save(1, into: "Trip", at: mine, tag: "m")
            let onlyTheirs = try await save(1, into: "Trip", at: theirs, tag: "t")
            for url in [mine, theirs] {
                try await PhotoLibrary(backend: try CatalogBackend.open(at: url)).renameAlbum(
                    titled: "Trip", to: "Holiday")
            }
            try replace(mine.path + "/catalog.sqlite", with: theirs.path + "/catalog.sqlite")
            let backend = try CatalogBackend.open(at: mine)
            let notices = backend.takeNotices()
            let library = PhotoLibrary(backend: backend)
            #expect(
                Set(try await library.assets(inAlbumTitled: "Holiday").map(\.id))
                    == Set((base + onlyMine).map(\.assetID)))
            #expect(!(try await assetIDs(mine)).contains(onlyTheirs[0].assetID), "a photo this library lacks is shown")
            #expect(notices.contains { $0.contains("does not match the library's journal") }, "\(notices)")
            #expect(try await library.verify().isHealthy)
        }
    }

    /// Two copies whose journals end with the very same line at the very same place, an earlier
    /// record differing (an album of another title, of the same length): the last line's check
    /// passes, and the whole journal, checked once since the index was last checked against another
    /// journal file, tells them apart.
    @Test func anIndexWhoseLastRecordMatchesButNotAnEarlierOneIsRebuilt() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let mine = library(dir, "Mine")
            _ = try await save(1, into: "Trip", at: mine, tag: "b")
            let trip = try #require(
                try await PhotoLibrary(backend: try CatalogBackend.open(at: mine)).albums().first?.id)
            let theirs = library(dir, "Theirs")
            try FileManager.default.copyItem(at: mine, to: theirs)
            for (url, title, id) in [
                (mine, "Mine", "11111111-1111-1111-1111-111111111111"),
                (theirs, "Ours", "22222222-2222-2222-2222-222222222222"),
            ] {
                try LibraryJournal(libraryRoot: url.path).append([
                    .createAlbum(id: id, title: title, createdAt: 1_800_000_000),
                    .renameAlbum(id: trip, title: "Holiday"),
                ])
            }
            // Theirs applies its records, then its index is copied into mine.
            #expect(
                Set(try await PhotoLibrary(backend: try CatalogBackend.open(at: theirs)).albums().map(\.title))
                    == ["Ours", "Holiday"])
            let journals = [mine, theirs].map {
                try? Data(contentsOf: $0.appendingPathComponent("journal/library.journal"))
            }
            #expect(journals[0]?.count == journals[1]?.count && journals[0] != journals[1])
            // What the other library's opening left to do in the background is done before its index
            // is copied (on a busy machine it could still be writing that index).
            await Blocking.acknowledgedWorkFinished()
            try replace(mine.path + "/catalog.sqlite", with: theirs.path + "/catalog.sqlite")
            let backend = try CatalogBackend.open(at: mine)
            #expect(Set(try await PhotoLibrary(backend: backend).albums().map(\.title)) == ["Mine", "Holiday"])
            let notices = backend.takeNotices()
            #expect(notices.contains { $0.contains("does not match the library's journal") }, "\(notices)")
        }
    }

    /// The same with the snapshot: the other copy's snapshot is checked in full against this
    /// journal before a rebuild uses it, set aside once (moved, not copied), and `repair` does not
    /// rebuild from it again and again.
    @Test func aSnapshotFromACopyOfTheLibraryIsSetAsideOnce() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let mine = library(dir, "Mine")
            let base = try await save(2, into: "Trip", at: mine, tag: "b", snapshotEvery: 2)
            let theirs = library(dir, "Theirs")
            try FileManager.default.copyItem(at: mine, to: theirs)
            let onlyMine = try await save(3, into: "Trip", at: mine, tag: "m")
            let onlyTheirs = try await save(2, into: "Trip", at: theirs, tag: "t", snapshotEvery: 2)
            let foreign = try Data(contentsOf: theirs.appendingPathComponent("snapshots/index.sqlite"))
            try replace(mine.path + "/snapshots/index.sqlite", with: theirs.path + "/snapshots/index.sqlite")
            try restart(mine)
            let backend = try CatalogBackend.open(at: mine)
            let notices = backend.takeNotices()
            #expect(notices.contains { $0.contains("its snapshot was not used") }, "\(notices)")
            let shown = try await assetIDs(mine)
            #expect(shown == Set((base + onlyMine).map(\.assetID)))
            #expect(!shown.contains(onlyTheirs[0].assetID))
            let kept = damagedEntries(mine).filter { $0.hasSuffix("snapshot-index.sqlite") }
            #expect(kept.count == 1, "\(damagedEntries(mine))")
            if let first = kept.first {
                #expect(try Data(contentsOf: mine.appendingPathComponent("damaged/" + first)) == foreign)
            }
            for _ in 0..<2 {
                let report = try await PhotoLibrary.repair(catalogAt: mine)
                #expect(report.restoredAssets == 5 && report.notRestored.isEmpty, "\(report)")
            }
            #expect(damagedEntries(mine).filter { $0.hasSuffix("snapshot-index.sqlite") }.count == 1)
            #expect(try await assetIDs(mine) == Set((base + onlyMine).map(\.assetID)))
        }
    }

    /// One damaged page in the snapshot, then a restart: the next command rebuilds from the
    /// journal at once (before, every command spun for 60 s and failed, storing a copy of the
    /// index at each try), the snapshot is set aside once, and repeating the command adds nothing
    /// under `damaged/`.
    @Test func aDamagedSnapshotPageIsSetAsideOnceAndTheRebuildGoesOn() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let saved = try await save(12, into: "Trip", at: url, tag: "d", snapshotEvery: 4)
            let snapshot = url.path + "/snapshots/index.sqlite"
            // The second page (which every rebuild reads) overwritten with other bytes.
            let handle = try #require(FileHandle(forUpdatingAtPath: snapshot))
            try handle.seek(toOffset: 4096)
            try handle.write(contentsOf: Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }))
            try handle.close()
            for attempt in 0..<3 {
                try restart(url)
                let start = ContinuousClock.now
                #expect(try await assetIDs(url) == Set(saved.map(\.assetID)), "attempt \(attempt)")
                #expect(ContinuousClock.now - start < .seconds(10), "attempt \(attempt) took too long")
                let kept = damagedEntries(url)
                #expect(kept.count == 1 && kept[0].hasSuffix("snapshot-index.sqlite"), "\(kept)")
            }
            // The same page of the index itself: kept once, however often the command runs.
            let index = try #require(FileHandle(forUpdatingAtPath: url.path + "/catalog.sqlite"))
            try index.seek(toOffset: 4096)
            try index.write(contentsOf: Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 53 &+ 7) }))
            try index.close()
            for attempt in 0..<3 {
                let start = ContinuousClock.now
                #expect(try await assetIDs(url) == Set(saved.map(\.assetID)), "index attempt \(attempt)")
                #expect(ContinuousClock.now - start < .seconds(10), "index attempt \(attempt) took too long")
                #expect(damagedEntries(url).count == 2, "\(damagedEntries(url))")
            }
        }
    }

    /// A folder, a FIFO or a symbolic link where the index, its rollback journal or its WAL goes:
    /// moved under `damaged/` (never removed, never followed, never waited on), the index rebuilt,
    /// every command works; the file a link points to is untouched.
    @Test(arguments: ["catalog.sqlite", "catalog.sqlite-journal", "catalog.sqlite-wal"])
    func aNonFileWhereTheIndexGoesIsSetAside(name: String) async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let outside = dir.appendingPathComponent("outside.txt")
            try Data("not AlbumKit's".utf8).write(to: outside)
            for kind in ["folder", "fifo", "link"] {
                let url = library(dir, "NonFile-\(kind)")
                let saved = try await save(2, into: "Trip", at: url, tag: kind)
                let path = url.path + "/" + name
                try? FileManager.default.removeItem(atPath: path)
                switch kind {
                case "folder":
                    try FileManager.default.createDirectory(atPath: path + "/inside", withIntermediateDirectories: true)
                case "fifo": #expect(mkfifo(path, 0o644) == 0)
                default: try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: outside.path)
                }
                let backend = try CatalogBackend.open(at: url)
                let notices = backend.takeNotices()
                #expect(notices.contains { $0.contains("not a file") }, "\(kind): \(notices)")
                #expect(
                    Set(try await PhotoLibrary(backend: backend).assets(limit: 1000).assets.map(\.id))
                        == Set(saved.map(\.assetID)),
                    "\(kind)")
                _ = try await save(1, into: "Trip", at: url, tag: kind + "-after")
                let kept = damagedEntries(url).filter { $0.hasSuffix("/" + name) }
                #expect(kept.count == 1, "\(kind): \(damagedEntries(url))")
                if let first = kept.first {
                    let status = FileSystem.fileStatus(atPath: url.path + "/damaged/" + first, following: false)
                    let expected: FileStatus.Kind =
                        kind == "folder" ? .directory : kind == "fifo" ? .other : .symbolicLink
                    #expect(status?.kind == expected, "\(kind)")
                }
                #expect(try String(contentsOf: outside, encoding: .utf8) == "not AlbumKit's")
                #expect(FileSystem.fileStatus(atPath: url.path + "/catalog.sqlite", following: false)?.kind == .regular)
            }
        }
    }

    /// A link where `damaged/` goes (to a folder outside the library): what is set aside stays in
    /// the library, in a `damaged/` folder of its own; the link is renamed beside it, not followed.
    @Test func aLinkWhereTheDamagedFolderGoesIsNotFollowed() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let saved = try await save(2, into: "Trip", at: url, tag: "l")
            let outside = dir.appendingPathComponent("outside")
            try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: url.path + "/damaged", withDestinationPath: outside.path)
            try Data("not an index".utf8).write(to: url.appendingPathComponent("catalog.sqlite"))
            #expect(try await assetIDs(url) == Set(saved.map(\.assetID)))
            #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty, "set aside outside")
            #expect(FileSystem.fileStatus(atPath: url.path + "/damaged", following: false)?.kind == .directory)
            #expect(damagedEntries(url).contains { $0.hasSuffix("/catalog.sqlite") }, "\(damagedEntries(url))")
        }
    }

    /// The same where the snapshot goes (a FIFO in place of the file, a link in place of its
    /// folder): set aside at the rebuild after a restart and when the next snapshot is taken;
    /// nothing is written through the link.
    @Test func aNonFileWhereTheSnapshotGoesIsSetAside() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let saved = try await save(2, into: "Trip", at: url, tag: "s", snapshotEvery: 2)
            let snapshot = url.path + "/snapshots/index.sqlite"
            try FileManager.default.removeItem(atPath: snapshot)
            #expect(mkfifo(snapshot, 0o644) == 0)
            try restart(url)
            #expect(try await assetIDs(url) == Set(saved.map(\.assetID)))
            #expect(damagedEntries(url).contains { $0.hasSuffix("snapshot-index.sqlite") }, "\(damagedEntries(url))")

            let elsewhere = dir.appendingPathComponent("elsewhere")
            try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
            try FileManager.default.removeItem(atPath: url.path + "/snapshots")
            try FileManager.default.createSymbolicLink(
                atPath: url.path + "/snapshots", withDestinationPath: elsewhere.path)
            let more = try await save(2, into: "Trip", at: url, tag: "t", snapshotEvery: 2)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty, "written through a link")
            #expect(FileSystem.fileStatus(atPath: url.path + "/snapshots", following: false)?.kind == .directory)
            #expect(FileSystem.fileStatus(atPath: snapshot, following: false)?.kind == .regular)
            try restart(url)
            #expect(try await assetIDs(url) == Set((saved + more).map(\.assetID)))
        }
    }

    /// The index ahead of the journal (the journal restored from an older copy, or cut short)
    /// while a killed saver's publishing list names the photos the journal lost: opening removes
    /// none of them (before, a plain listing deleted every one and said nothing was lost), says
    /// records were lost and what `repair` brings back, and `repair` adopts them.
    @Test func recoveryRemovesNothingWhenTheIndexIsAheadOfTheJournal() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            _ = try await save(2, into: "Base", at: url, tag: "a")
            let journal = url.path + "/journal/library.journal"
            let length = try #require(FileSystem.fileStatus(atPath: journal)?.size)
            _ = try await save(8, into: "Trip", at: url, tag: "l")
            let paths = try await PhotoLibrary(backend: try CatalogBackend.open(at: url)).assets(inAlbumTitled: "Trip")
                .map(\.id)
            #expect(paths.count == 8)
            let originals = Fixture.files(under: url.appendingPathComponent("originals")).filter { !$0.contains("/.") }
            #expect(originals.count == 10)
            // A saver killed while it published them: its list names them, its owner file is gone.
            let listed = originals.map { "originals/" + $0 }.joined(separator: "\n") + "\n"
            try Data(listed.utf8).write(to: url.appendingPathComponent("owners/p99999-00000000deadbeef.publishing"))
            #expect(truncate(journal, off_t(length)) == 0)
            let backend = try CatalogBackend.open(at: url)
            let notices = backend.takeNotices()
            #expect(
                Fixture.files(under: url.appendingPathComponent("originals")).filter { !$0.contains("/.") }.count == 10,
                "an acknowledged original was removed")
            #expect(
                notices.contains { $0.contains("may lack records") && $0.contains("album repair") }
                    && !notices.contains { $0.contains("Nothing was lost") }, "\(notices)")
            #expect(try await PhotoLibrary(backend: backend).assets(limit: 1000).assets.count == 2)
            // Opened again: still nothing removed (the list was set aside, not acted on later).
            _ = try CatalogBackend.open(at: url)
            #expect(
                Fixture.files(under: url.appendingPathComponent("originals")).filter { !$0.contains("/.") }.count == 10)
            let report = try await PhotoLibrary.repair(catalogAt: url)
            #expect(report.journalRecordsAdded == 8, "\(report)")
            #expect(try await assetIDs(url).count == 10)
        }
    }

    /// The index's journal position moved past the journal's end after the library opened it (the
    /// `sqlite3` shell writing the catalog while savers run, as the reliability harness does): the
    /// next save rebuilds the index and succeeds, where it failed with "the journal shrank".
    @Test func anIndexChangedToClaimMoreThanTheJournalWhileOpenIsRebuiltAndTheSaveGoesOn() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let backend = try CatalogBackend.open(at: url)
            let library = PhotoLibrary(backend: backend)
            _ = try await library.album(titled: "Open").save(.data(Fixture.uniqueJPEG("o1"), filename: "IMG_o1.JPG"))
            await Blocking.acknowledgedWorkFinished()
            let db = try Database(path: url.path + "/catalog.sqlite", create: false)
            try db.run(
                "UPDATE index_state SET value = 1000000000 WHERE key = ?", [.text(CatalogSchema.StateKey.position)])
            let saved = try await library.album(titled: "Open").save(
                .data(Fixture.uniqueJPEG("o2"), filename: "IMG_o2.JPG"))
            await Blocking.acknowledgedWorkFinished()
            #expect(saved.albumOutcome == .found)
            #expect(try await assetIDs(url).count == 2)
        }
    }

    /// A table of the index dropped by another program after the library opened it (seen once in
    /// the reliability harness's `sqlite3` run: "no such table: index_state"): the index is rebuilt
    /// from the journal and the save goes on, for every table a save reads or writes.
    @Test(arguments: ["index_state", "album_asset", "album", "asset"])
    func aTableDroppedWhileOpenIsRebuiltAndTheSaveGoesOn(table: String) async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = library(dir)
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            _ = try await library.album(titled: "Open").save(.data(Fixture.uniqueJPEG("d1"), filename: "IMG_d1.JPG"))
            await Blocking.acknowledgedWorkFinished()
            let db = try Database(path: url.path + "/catalog.sqlite", create: false)
            try db.execute("PRAGMA foreign_keys = OFF; DROP TABLE \(table)")
            let saved = try await library.album(titled: "Open").save(
                .data(Fixture.uniqueJPEG("d2"), filename: "IMG_d2.JPG"))
            await Blocking.acknowledgedWorkFinished()
            #expect(saved.albumOutcome == .found)
            #expect(try await assetIDs(url).count == 2)
            #expect(try await library.albums().map(\.title) == ["Open"])
        }
    }
}
