import AlbumKitConformance
import Foundation
import Testing

@testable import AlbumKitCatalog
@testable import AlbumKitCore

/// The catalog's listings seek in its indexes: pages by raw key columns (date added, date taken,
/// each filtered by kind and dates), album pages by place, counts kept as memberships change,
/// recognition by name. Results are held against the order every other library computes
/// (``AssetOrder/sortKey(of:)``), and each query's plan against a scan of the whole table.
@Suite struct CatalogListingTests {
    static let base: TimeInterval = 1_700_000_000

    /// A new catalog library in `dir` (empty).
    static func library(_ dir: URL) throws -> URL {
        let url = dir.appendingPathComponent("Listing.albumlibrary")
        _ = try CatalogBackend.open(at: url)
        return url
    }

    /// The record of a saved asset (its file is not made: listings do not read files).
    static func save(
        _ n: Int, added: TimeInterval, taken: String? = nil, video: Bool = false
    ) -> CatalogChange {
        var metadata = #"{"format":"\#(video ? "mp4" : "jpeg")","kind":"\#(video ? "video" : "photo")""#
        if let taken { metadata += #","captureDate":"\#(taken)""# }
        // Some with a camera and a place, for the filters that read each asset.
        if n % 5 == 1 { metadata += #","make":"Canon","model":"Canon EOS R6","latitude":48.85,"longitude":2.35"# }
        metadata += "}"
        return .save(
            .init(
                id: id(n), path: "originals/00/\(n).jpg",
                originalName: "IMG_\(n).JPG", byteSize: 100, sha256: String(format: "%064x", n),
                kind: video ? "video" : "photo", format: video ? "mp4" : "jpeg", addedAt: added, metadata: metadata))
    }

    /// The id of the asset ``save(_:added:taken:video:)`` records: the first 40 in an order
    /// unlike their dates'.
    static func id(_ n: Int) -> String {
        n < 40 ? String(format: "asset-%03d", (n * 37) % 101) : "asset-late-\(n)"
    }

    /// 40 assets whose dates tie in both orders (a date added a fraction of a microsecond away
    /// from another's ties with it, as its key does), a third of them videos, some taken with a
    /// time zone, some without a capture date.
    static var records: [CatalogChange] {
        (0..<40).map { n in
            let added = base + Double(n % 7) + (n % 5 == 0 ? 0.000_000_4 : 0)
            let taken: String? =
                n % 4 == 0 ? nil : String(format: "2024-05-%02dT10:20:30", 1 + n % 3) + (n % 8 == 1 ? "+02:00" : "")
            return save(n, added: added, taken: taken, video: n % 3 == 0)
        }
    }

    /// Every asset passing `filter`, in `order`, as every library sorts them.
    static func reference(_ all: [AssetInfo], _ order: AssetOrder, _ filter: AssetFilter) -> [String] {
        all.filter { filter.matches($0, in: order) }
            .sorted { (order.sortKey(of: $0), $0.id) < (order.sortKey(of: $1), $1.id) }.map(\.id)
    }

    /// Every page of the listing, `limit` at a time.
    static func paged(
        _ library: PhotoLibrary, _ order: AssetOrder, _ filter: AssetFilter, limit: Int
    ) async throws -> [String] {
        var ids: [String] = []
        var cursor: String?
        repeat {
            let page = try await library.assets(orderedBy: order, matching: filter, after: cursor, limit: limit)
            #expect(page.assets.count <= limit)
            ids += page.assets.map(\.id)
            cursor = page.nextCursor
            if let cursor { _ = try AssetCursor(token: cursor, order: order) }
        } while cursor != nil
        return ids
    }

    static var filters: [AssetFilter] {
        let from = Date(timeIntervalSince1970: base + 2)
        let to = Date(timeIntervalSince1970: base + 5)
        let may2 = ISO8601DateFormatter().date(from: "2024-05-02T00:00:00Z")!
        return [
            .all, .photos, .videos, AssetFilter(dates: from..<to), AssetFilter(kinds: [.video], dates: from..<to),
            AssetFilter(dates: may2..<may2.addingTimeInterval(86_400)), AssetFilter(kinds: []),
            // Filters the catalog judges on each row it reads, alone and with those it seeks by.
            AssetFilter(taken: may2..<may2.addingTimeInterval(86_400)),
            AssetFilter(kinds: [.photo], taken: may2..<may2.addingTimeInterval(86_400), camera: "eos"),
            AssetFilter(camera: "canon"), AssetFilter(name: "img_1?.jpg"), AssetFilter(name: "*[27]*"),
            AssetFilter(area: .near(GeoLocation(latitude: 48.86, longitude: 2.35), kilometres: 2)),
            AssetFilter(dates: from..<to, area: .box(south: 48, west: 2, north: 49, east: 3)),
            AssetFilter(kinds: [.video], camera: "Canon"), AssetFilter.raws,
        ]
    }

    @Test func everyOrderAndFilterPagesAsEveryLibrarySorts() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = try Self.library(dir)
            try LibraryJournal(libraryRoot: url.path).append(Self.records)
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            let all = try await library.assets(orderedBy: .dateAdded, limit: 1000).assets
            #expect(Set(all.map(\.id)).count == 40)
            // The filters that read each asset keep some, not all nor none.
            #expect(Self.reference(all, .dateAdded, AssetFilter(camera: "canon")).count == 8)
            #expect(Self.reference(all, .dateAdded, AssetFilter(name: "img_1?.jpg")).count == 10)
            for order in AssetOrder.allCases {
                for filter in Self.filters {
                    let expected = Self.reference(all, order, filter)
                    for limit in [1, 3, 7, 100] {
                        let listed = try await Self.paged(library, order, filter, limit: limit)
                        #expect(listed == expected, "\(order) \(filter) by \(limit)")
                    }
                }
            }
        }
    }

    /// The catalog's cursor is the one every library makes (`key|id`, the key of
    /// ``AssetOrder/sortKey(of:)``): a cursor of one listing reads the same anywhere.
    @Test func cursorsAreTheSortKeyAndId() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = try Self.library(dir)
            try LibraryJournal(libraryRoot: url.path).append(Self.records)
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            for order in AssetOrder.allCases {
                let page = try await library.assets(orderedBy: order, limit: 5)
                let last = try #require(page.assets.last)
                #expect(page.nextCursor == AssetCursor(key: order.sortKey(of: last), id: last.id).token)
            }
            await #expect(throws: AlbumError.self) {
                _ = try await library.assets(orderedBy: .dateAdded, after: "12.5|asset-001", limit: 5)
            }
        }
    }

    /// Assets saved between two pages: none listed twice, none that stays skipped; those after
    /// the cursor come in their place, those before it are not listed.
    @Test func pagesAcrossInsertsNeitherRepeatNorSkip() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = try Self.library(dir)
            let journal = LibraryJournal(libraryRoot: url.path)
            try journal.append(Self.records)
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            for order in AssetOrder.allCases {
                let before = try await library.assets(orderedBy: order, limit: 1000).assets.map(\.id)
                let first = try await library.assets(orderedBy: order, limit: 10)
                let offset = order == .dateAdded ? 100 : 200
                try journal.append([
                    Self.save(offset + 1, added: Self.base - 50, taken: "2000-01-01T00:00:00"),
                    Self.save(offset + 2, added: Self.base + 50, taken: "2030-01-01T00:00:00"),
                ])
                var listed = first.assets.map(\.id)
                var cursor = first.nextCursor
                while let next = cursor {
                    let page = try await library.assets(orderedBy: order, after: next, limit: 10)
                    listed += page.assets.map(\.id)
                    cursor = page.nextCursor
                }
                #expect(listed == before + [Self.id(offset + 2)], "\(order)")
            }
        }
    }

    @Test func albumPagesFollowTheAlbumAndSkipDeletedAssets() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = try Self.library(dir)
            let journal = LibraryJournal(libraryRoot: url.path)
            let ids = (0..<40).map(Self.id)
            try journal.append(
                Self.records + [
                    .createAlbum(id: "album-1", title: "Trips", createdAt: Self.base),
                    .addToAlbum(album: "album-1", assets: Array(ids.reversed()), at: Self.base),
                    .deleteAssets([ids[3], ids[20]], at: Self.base + 100),
                ])
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            let whole = try await library.assets(inAlbumWithID: "album-1").map(\.id)
            #expect(whole == ids.reversed().filter { $0 != ids[3] && $0 != ids[20] })
            for limit in [1, 4, 38, 100] {
                var listed: [String] = []
                var cursor: String?
                repeat {
                    let page = try await library.assets(inAlbumWithID: "album-1", after: cursor, limit: limit)
                    listed += page.assets.map(\.id)
                    cursor = page.nextCursor
                } while cursor != nil
                #expect(listed == whole, "by \(limit)")
            }
            await #expect(throws: AlbumError.self) {
                _ = try await library.assets(inAlbumWithID: "album-1", after: "2024-05-01T10:20:30|x", limit: 5)
            }
            await #expect(throws: AlbumError.self) {
                _ = try await library.assets(inAlbumWithID: "no-such-album", after: nil, limit: 5)
            }
        }
    }

    /// A place in an album of several blocks (``CatalogSchema/albumBlockSize`` places each) is the
    /// asset its cursor pages give there, in the album's order and by date taken, as assets are
    /// deleted, restored, removed and added back (the blocks' counts follow), and after the index
    /// is rebuilt from the journal; verify finds the kept counts as the journal makes them.
    @Test func placesInAnAlbumFollowItsBlocks() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = try Self.library(dir)
            let count = 2_600
            let ids = (100..<100 + count).map(Self.id)
            let saves = (100..<100 + count).map { n in
                Self.save(n, added: Self.base + Double(n), taken: String(format: "2024-05-%02dT10:20:30", 1 + n % 28))
            }
            try LibraryJournal(libraryRoot: url.path).append(
                saves + [
                    .createAlbum(id: "album-1", title: "Big", createdAt: Self.base),
                    .addToAlbum(album: "album-1", assets: Array(ids.reversed()), at: Self.base),
                ])
            func expectPlaces(_ library: PhotoLibrary, _ step: String) async throws {
                let inOrder = try await library.assets(inAlbumWithID: "album-1").map(\.id)
                var byTaken: [String] = []
                for try await asset in library.allAssets(
                    orderedBy: .captureDate, matching: AssetFilter(albumID: "album-1"), pageSize: 700)
                {
                    byTaken.append(asset.id)
                }
                for (order, expected) in [(AssetOrder.dateAdded, inOrder), (.captureDate, byTaken)] {
                    let block = Int(CatalogSchema.albumBlockSize)
                    let places =
                        [0, 1, block - 2, block - 1, block, block + 1, 2 * block - 1, 2 * block]
                        + [expected.count - 3, expected.count - 1, expected.count, expected.count + 5]
                    for position in places where position >= 0 {
                        for limit in [1, 3, 100] {
                            let slice = try await library.assets(
                                inAlbumWithID: "album-1", orderedBy: order, at: position, limit: limit)
                            #expect(
                                slice.assets.map(\.id) == Array(expected.dropFirst(position).prefix(limit)),
                                "\(step): \(order) at \(position), \(limit)")
                            #expect(slice.albumCount == expected.count, "\(step)")
                        }
                    }
                }
            }
            let backend = try CatalogBackend.open(at: url)
            let library = PhotoLibrary(backend: backend)
            try await expectPlaces(library, "saved")
            // Gaps in the first and second blocks, a whole stretch gone from the third.
            let gone = [ids[5], ids[count - 3], ids[count - 1_030]] + Array(ids[100..<400])
            try await library.deleteAssets(withIDs: gone)
            try await library.removeAssets(withIDs: [ids[count - 2], ids[count - 1_500]], fromAlbumWithID: "album-1")
            try await expectPlaces(library, "deleted and removed")
            try await library.restoreAssets(withIDs: Array(gone.prefix(150)))
            try await library.addAssets(withIDs: [ids[count - 2]], toAlbumWithID: "album-1")
            try await expectPlaces(library, "restored and added back")
            // The kept counts of the blocks as the journal replayed afresh makes them (the records'
            // files are not made: verify's look at the files would find them missing).
            #expect(try backend.indexDisagreements().isEmpty)
            for suffix in ["", "-journal"] {
                // Gone already when the index never made one: nothing to remove.
                try? FileManager.default.removeItem(atPath: url.appendingPathComponent("catalog.sqlite" + suffix).path)
            }
            // None taken yet: nothing to remove.
            try? FileManager.default.removeItem(at: url.appendingPathComponent("snapshots"))
            try await expectPlaces(PhotoLibrary(backend: try CatalogBackend.open(at: url)), "rebuilt")
        }
    }

    /// An index of version 6 (no kept counts of the albums' blocks), and its snapshot, are
    /// rebuilt from the journal: places in an album are found as before the upgrade.
    @Test func anIndexWithoutTheAlbumsBlocksIsRebuilt() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Six.albumlibrary")
            let backend = try CatalogBackend.open(at: url)
            let library = PhotoLibrary(backend: backend)
            let media = (0..<5).map { Media.data(Fixture.uniqueJPEG("six\($0)"), filename: "IMG_\($0).JPG") }
            _ = await library.album(titled: "Trips").save(media)
            await Blocking.acknowledgedWorkFinished()
            let id = try await library.albumInfo(titled: "Trips").id
            let listed = try await library.assets(inAlbumWithID: id).map(\.id)
            try backend.takeSnapshot()
            let catalog = url.appendingPathComponent("catalog.sqlite").path
            for path in [catalog, backend.snapshotPath] {
                let db = try Database(path: path, create: false)
                try db.execute("DROP TABLE album_block; PRAGMA user_version = 6")
            }
            let again = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            let slice = try await again.assets(inAlbumWithID: id, at: 2, limit: 2)
            #expect(slice.assets.map(\.id) == Array(listed[2..<4]) && slice.albumCount == 5)
            let db = try Database(path: catalog, mode: .readOnly)
            #expect(try db.row("PRAGMA user_version")?.integer(0) == CatalogSchema.version)
            #expect(try db.row("SELECT sum(ready_count) FROM album_block")?.integer(0) == 5)
            #expect(try await again.verify().problems.isEmpty)
        }
    }

    /// The grouped count of each album's assets not recently deleted, from the index itself.
    static func countedInIndex(_ url: URL) throws -> [String: Int] {
        let db = try Database(path: url.appendingPathComponent("catalog.sqlite").path, mode: .readOnly)
        var counts: [String: Int] = [:]
        for row in try db.rows(
            """
            SELECT a.title, a.ready_count, (SELECT count(*) FROM album_asset m JOIN asset s ON s.id = m.asset_id
                WHERE m.album_id = a.id AND s.state = 'ready'), a.ready_bytes,
                (SELECT coalesce(sum(s.byte_size), 0) FROM album_asset m JOIN asset s ON s.id = m.asset_id
                WHERE m.album_id = a.id AND s.state = 'ready') FROM album a
            """)
        {
            #expect(row.integer(1) == row.integer(2), "kept count of \(row.text(0) ?? "")")
            #expect(row.integer(3) == row.integer(4), "kept size of \(row.text(0) ?? "")")
            counts[row.text(0) ?? ""] = Int(row.integer(2) ?? -1)
        }
        return counts
    }

    static func listedCounts(_ library: PhotoLibrary) async throws -> [String: Int] {
        Dictionary(uniqueKeysWithValues: try await library.albums().map { ($0.title, $0.count) })
    }

    /// Each album's summary from the catalog's kept values and seeks, held against the summary of
    /// its listing (what every other library computes).
    static func expectSummariesAsListed(_ library: PhotoLibrary, _ step: String) async throws {
        let summaries = try await library.albumSummaries()
        for album in try await library.albums() {
            let listed = AlbumSummary(albumID: album.id, assets: try await library.assets(inAlbumWithID: album.id))
            let kept = try #require(summaries.first { $0.albumID == album.id }, "\(step): \(album.title)")
            #expect(kept.count == listed.count && kept.byteSize == listed.byteSize, "\(step): \(album.title)")
            #expect(
                kept.firstTaken == listed.firstTaken && kept.lastTaken == listed.lastTaken, "\(step): \(album.title)")
        }
    }

    @Test func keptCountsFollowAddRemoveDeleteRestorePurgeAndARebuild() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Counts.albumlibrary")
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            let media = (0..<6).map { Media.data(Fixture.uniqueJPEG("count\($0)"), filename: "IMG_\($0).JPG") }
            let saved = try await library.album(titled: "A").save(media).map { try $0.get() }
            let ids = saved.map(\.assetID)
            _ = try await library.createAlbum(titled: "B")
            let b = try await library.albumInfo(titled: "B").id
            let a = try await library.albumInfo(titled: "A").id
            func expect(_ counts: [String: Int], _ step: String) async throws {
                await Blocking.acknowledgedWorkFinished()
                #expect(try await Self.listedCounts(library) == counts, "\(step)")
                #expect(try Self.countedInIndex(url) == counts, "\(step)")
                try await Self.expectSummariesAsListed(library, step)
            }
            try await expect(["A": 6, "B": 0], "saved")
            try await library.addAssets(withIDs: [ids[0], ids[1], ids[2]], toAlbumWithID: b)
            try await library.addAssets(withIDs: [ids[0]], toAlbumWithID: b)
            try await expect(["A": 6, "B": 3], "added")
            try await library.removeAssets(withIDs: [ids[2]], fromAlbumWithID: b)
            try await expect(["A": 6, "B": 2], "removed")
            try await library.deleteAssets(withIDs: [ids[0], ids[5]])
            try await expect(["A": 4, "B": 1], "deleted")
            try await library.restoreAssets(withIDs: [ids[0]])
            try await expect(["A": 5, "B": 2], "restored")
            // Purged: one in recently deleted (counted nowhere already), one listed in both.
            try await library.deleteAssets(withIDs: [ids[5], ids[1]], permanently: true)
            try await expect(["A": 4, "B": 1], "purged")
            try await library.removeAssets(withIDs: [ids[3]], fromAlbumWithID: a)
            try await library.addAssets(withIDs: [ids[3]], toAlbumWithID: a)
            try await expect(["A": 4, "B": 1], "removed and added back")
            // Rebuilt from the journal alone: the same counts.
            for suffix in ["", "-journal"] {
                try? FileManager.default.removeItem(atPath: url.appendingPathComponent("catalog.sqlite" + suffix).path)
            }
            try? FileManager.default.removeItem(at: url.appendingPathComponent("snapshots"))
            let rebuilt = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            #expect(try await Self.listedCounts(rebuilt) == ["A": 4, "B": 1])
            #expect(try Self.countedInIndex(url) == ["A": 4, "B": 1])
            #expect(try await rebuilt.verify().problems.isEmpty)
            try await Self.expectSummariesAsListed(rebuilt, "rebuilt")
        }
    }

    static let indexVersion5 = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("IndexVersion5/Photos.albumlibrary")

    /// A library whose index and snapshot the release before the kept sizes wrote (index version
    /// 5, `IndexVersion5/README.md`) opens with its index rebuilt from the journal: the albums'
    /// counts, sizes and capture dates as before, the new index there, nothing to report.
    @Test func anIndexWrittenByTheReleaseBeforeGetsTheKeptSummaries() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Photos.albumlibrary")
            try FileManager.default.copyItem(at: Self.indexVersion5, to: url)
            let catalog = url.appendingPathComponent("catalog.sqlite").path
            #expect(try Database(path: catalog, mode: .readOnly).row("PRAGMA user_version")?.integer(0) == 5)
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            #expect(try await Self.listedCounts(library) == ["Trips": 3, "Home": 2])
            let summaries = Dictionary(
                uniqueKeysWithValues: try await library.albumSummaries().map { ($0.albumID, $0) })
            let trips = try await library.albumInfo(titled: "Trips").id
            let kept = try #require(summaries[trips])
            #expect(kept.byteSize == Int64(517 + 739 + 5390))
            #expect(kept.firstTaken == "2023-12-31T23:59:59")
            #expect(kept.lastTaken == "2026-05-01T08:20:30")
            try await Self.expectSummariesAsListed(library, "opened")
            let db = try Database(path: catalog, mode: .readOnly)
            #expect(try db.row("PRAGMA user_version")?.integer(0) == CatalogSchema.version)
            #expect(try db.row("SELECT 1 FROM sqlite_schema WHERE name = 'album_asset_taken'") != nil)
            #expect(try await library.verify().problems.isEmpty)
        }
    }

    /// An index of the earlier layout (and a snapshot of it) is rebuilt with the listing keys and
    /// kept counts: the library reads as before, from the journal.
    @Test func anIndexAndSnapshotOfTheEarlierLayoutAreRebuilt() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Earlier.albumlibrary")
            let backend = try CatalogBackend.open(at: url)
            let library = PhotoLibrary(backend: backend)
            let media = (0..<4).map { Media.data(Fixture.uniqueJPEG("earlier\($0)"), filename: "IMG_\($0).JPG") }
            _ = await library.album(titled: "Trips").save(media)
            await Blocking.acknowledgedWorkFinished()
            try backend.takeSnapshot()
            let catalog = url.appendingPathComponent("catalog.sqlite").path
            for path in [catalog, backend.snapshotPath] {
                let db = try Database(path: path, create: false)
                try db.execute("PRAGMA user_version = 4")
            }
            let again = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            #expect(try await again.albums().map(\.count) == [4])
            #expect(try await again.assets(orderedBy: .captureDate, limit: 10).assets.count == 4)
            let db = try Database(path: catalog, mode: .readOnly)
            #expect(try db.row("PRAGMA user_version")?.integer(0) == CatalogSchema.version)
            #expect(try await again.verify().problems.isEmpty)
        }
    }

    /// The plan of each listing query, of recognition by name and of verify's pages: a search in
    /// an index, never a scan of the asset or membership table nor a sort (plans, unlike timings,
    /// are stable).
    @Test func listingsAndRecognitionSeekInAnIndex() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = try Self.library(dir)
            try LibraryJournal(libraryRoot: url.path).append(Self.records)
            _ = try await PhotoLibrary(backend: try CatalogBackend.open(at: url)).albums()
            let db = try Database(path: url.appendingPathComponent("catalog.sqlite").path, mode: .readOnly)
            func plan(_ sql: String) throws -> [String] {
                try db.rows("EXPLAIN QUERY PLAN " + sql).compactMap { $0.text(3) }
            }
            func expectSeek(_ sql: String, _ index: String, _ what: String) throws {
                let steps = try plan(sql)
                #expect(steps.contains { $0.hasPrefix("SEARCH") && $0.contains("USING INDEX \(index)") }, "\(what)")
                let scans = steps.filter { $0.hasPrefix("SCAN") }
                #expect(scans.allSatisfy { $0.hasPrefix("SCAN json_each") }, "\(what): \(steps)")
                // Nothing sorted either: the rows come in the index's order (a sort of a page is
                // bounded, but reads every row the page may hold before the first is given).
                #expect(!steps.contains { $0.contains("TEMP B-TREE") }, "\(what): \(steps)")
            }
            try expectSeek(CatalogBackend.byNameSQL, "asset_by_name", "recognition by name")
            // An album's photos by name (a save's new versions): the names in `asset_by_name`, then
            // each asset's membership by its key; the album's other members are never read.
            try expectSeek(CatalogBackend.albumAssetsByNameSQL, "asset_by_name", "an album's photos by name")
            let byName = try plan(CatalogBackend.albumAssetsByNameSQL)
            #expect(
                byName.contains { $0.hasPrefix("SEARCH m USING PRIMARY KEY (album_id=? AND asset_id=?)") }, "\(byName)")
            let cursors: [AssetOrder: AssetCursor] = [
                .dateAdded: AssetCursor(key: AssetOrder.dateAddedKey(Self.base), id: "asset-001"),
                .captureDate: AssetCursor(key: "2024-05-01T10:20:30", id: "asset-001"),
            ]
            for order in AssetOrder.allCases {
                for filter in Self.filters where filter.kinds != [] {
                    for cursor in [nil, cursors[order]] {
                        let query = try CatalogListing(order: order, filter: filter, after: cursor)
                        let index = order == .dateAdded ? "asset_by_added" : "asset_by_taken"
                        try expectSeek(query.sql, index, "\(order) \(filter) \(cursor == nil ? "first" : "next") page")
                    }
                }
            }
            try expectSeek(CatalogListing.albumPageSQL, "album_asset_order", "an album's page")
            // A place in an album: its blocks' counts by the primary key of `album_block`, then a
            // seek in `album_asset_order`; by capture date a step through `album_asset_taken`.
            let blocks = try plan(CatalogListing.albumBlocksSQL)
            #expect(blocks.contains { $0.hasPrefix("SEARCH") && $0.contains("PRIMARY KEY") }, "\(blocks)")
            #expect(!blocks.contains { $0.hasPrefix("SCAN") || $0.contains("TEMP B-TREE") }, "\(blocks)")
            try expectSeek(CatalogListing.albumPlaceSQL, "album_asset_order", "a place in an album")
            try expectSeek(CatalogListing.albumTakenPlaceSQL, "album_asset_taken", "a place in an album by date taken")
            // The step to a place by date taken reads the index alone (no asset per place).
            let start = try plan(CatalogListing.albumTakenStartSQL)
            #expect(
                start.contains { $0.hasPrefix("SEARCH") && $0.contains("COVERING INDEX album_asset_taken") }, "\(start)"
            )
            #expect(!start.contains { $0.hasPrefix("SCAN") || $0.contains("TEMP B-TREE") }, "\(start)")
            try expectSeek(CatalogListing.albumTakenFromSQL, "album_asset_taken", "a page by date taken from a place")
            // The summaries read every album (a scan of `album`), each a seek for its dates.
            let summaries = try plan(CatalogBackend.albumSummariesSQL)
            #expect(summaries.filter { $0.contains("INDEX album_asset_taken") }.count == 2, "\(summaries)")
            #expect(summaries.filter { $0.hasPrefix("SCAN") } == ["SCAN a"], "\(summaries)")
            #expect(!summaries.contains { $0.contains("TEMP B-TREE") }, "\(summaries)")
            try expectSeek(CatalogBackend.verifyPageSQL, "sqlite_autoindex_asset_2", "verify's page of assets")
            // Verify's comparison reads both sides in an index's order: no sort of every membership.
            for fact in CatalogDifference.facts {
                #expect(!(try plan(fact.sql)).contains { $0.contains("TEMP B-TREE") }, "\(fact.sql)")
            }
        }
    }

    /// Stray files are found folder by folder against the paths the index names in that folder:
    /// an asset's own file, a companion kept in another folder than its asset's, a purged file
    /// not removed yet are no strays; a folder whose name starts another's (`a`, `ab`) is told
    /// apart from it; hidden files are not looked at. Each look at the index is a seek, whether a
    /// file is recorded (before a purge or a change of companions removes one) too.
    @Test func strayFilesAreFoundFolderByFolderWithSeeksOnly() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = try Self.library(dir)
            func record(_ n: Int, shard: String, companions: [CatalogCompanion] = []) -> CatalogChange {
                .save(
                    .init(
                        id: "asset-\(n)", path: "originals/\(shard)/\(n).jpg", originalName: "IMG_\(n).JPG",
                        byteSize: 3, sha256: String(format: "%064x", n), kind: "photo", format: "jpeg",
                        addedAt: Self.base + Double(n), metadata: nil, companions: companions))
            }
            let sidecar = CatalogCompanion(
                role: "sidecar", name: "IMG_2.xmp", path: "originals/a/2-1.xmp", size: 3,
                sha256: String(repeating: "0", count: 64))
            try LibraryJournal(libraryRoot: url.path).append([
                record(1, shard: "a"), record(2, shard: "ab", companions: [sidecar]), record(3, shard: "ab"),
                .deleteAssets(["asset-3"], at: Self.base + 10),
            ])
            let backend = try CatalogBackend.open(at: url)
            // Purged with its file left in place (as a removal cut short leaves it).
            _ = try backend.withIndex("test") { connection in
                try connection.index!.db.run("INSERT INTO purged_file (path) VALUES ('originals/ab/9.jpg')")
            }
            let files = [
                "a/1.jpg", "a/2-1.xmp", "a/stray.jpg", "a/.hidden", "ab/2.jpg", "ab/3.jpg", "ab/9.jpg", "ab/4.jpg",
                "b/1.jpg",
            ]
            for file in files {
                let path = url.appendingPathComponent("originals/" + file)
                try FileManager.default.createDirectory(
                    at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data("abc".utf8).write(to: path)
            }
            #expect(
                try backend.strayFiles().sorted() == [
                    "originals/a/stray.jpg", "originals/ab/4.jpg", "originals/b/1.jpg",
                ])
            _ = try backend.withIndex("test") { connection in
                let db = connection.index!.db
                for (sql, seeks) in [(CatalogBackend.shardFilesSQL, 3), (CatalogSchema.isRecordedFileSQL, 2)] {
                    let steps = try db.rows("EXPLAIN QUERY PLAN " + sql).compactMap { $0.text(3) }
                    #expect(steps.allSatisfy { !$0.hasPrefix("SCAN") && !$0.contains("TEMP B-TREE") }, "\(steps)")
                    #expect(steps.filter { $0.hasPrefix("SEARCH") }.count == seeks, "\(steps)")
                }
            }
            // The companion let go is removed with the change or kept as a purged file: no stray.
            try LibraryJournal(libraryRoot: url.path).append([.setCompanions(asset: "asset-2", companions: [])])
            _ = try await PhotoLibrary(backend: backend).albums()
            #expect(
                try backend.strayFiles().sorted() == [
                    "originals/a/stray.jpg", "originals/ab/4.jpg", "originals/b/1.jpg",
                ])
            let left = try backend.withIndex("test") { connection in
                try connection.index!.db.row("SELECT 1 FROM companion_file")
            }
            #expect(left == nil)
        }
    }

    /// Verify checks the files of a page on every core: every file is counted once, and the
    /// problems come in the order of the files' paths, as when they were checked one by one.
    @Test func verifyChecksFilesOnEveryCoreAndReportsInPathOrder() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Verify.albumlibrary")
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            let media = (0..<60).map { Media.data(Fixture.uniqueJPEG("verify\($0)"), filename: "IMG_\($0).JPG") }
            _ = try await library.album(titled: "A").save(media).map { try $0.get() }
            await Blocking.acknowledgedWorkFinished()
            let files = try await library.assets(orderedBy: .dateAdded, limit: 100).assets.compactMap(\.fileURL)
            #expect(files.count == 60)
            let damaged = files.sorted { $0.path < $1.path }.enumerated().filter { $0.offset % 9 == 0 }.map(\.element)
            for file in damaged { try Data("not the photo".utf8).write(to: file) }
            let seen = Locked((calls: 0, most: 0, total: 0))
            let report = try await library.verify { progress in
                seen.withLock {
                    ($0.calls, $0.most, $0.total) = ($0.calls + 1, max($0.most, progress.completed), progress.total)
                }
            }
            #expect(report.checkedAssets == 60)
            let named = report.problems.compactMap { problem in damaged.first { problem.contains($0.lastPathComponent) }
            }
            #expect(named == damaged, "\(report.problems)")
            #expect(report.problems.count == damaged.count)
            let counted = seen.withLock { $0 }
            #expect(counted.calls == 60 && counted.most == 60 && counted.total == 60)
        }
    }

    /// Verify's comparison of the index with the journal replayed: a kept count or a place in an
    /// album that differs is found, as a fact of each side.
    @Test func theIndexAndTheReplayedJournalAreComparedSideBySide() throws {
        func index(_ changes: [CatalogChange]) throws -> CatalogIndex {
            let index = try CatalogIndex.open(at: ":memory:", journalID: nil, create: true, busyTimeout: 1000)
            try index.db.immediateTransaction { for change in changes { try index.apply(change) } }
            return index
        }
        let changes =
            Self.records + [
                .createAlbum(id: "album-1", title: "Trips", createdAt: Self.base),
                .addToAlbum(album: "album-1", assets: [Self.id(0), Self.id(1), Self.id(2)], at: Self.base),
            ]
        let journal = try index(changes)
        let same = try index(changes)
        let none = try CatalogDifference(index: same.db, journal: journal.db)
        #expect(none.lacking == 0 && none.extra == 0 && none.example == nil)
        try same.db.run("UPDATE album SET ready_count = 7")
        let count = try CatalogDifference(index: same.db, journal: journal.db)
        #expect(count.lacking == 1 && count.extra == 1)
        #expect(count.example?.hasPrefix("album album-1 Trips") == true)
        let swapped = try index(changes)
        try swapped.db.run("UPDATE album_asset SET position = 10 - position")
        #expect(try CatalogDifference(index: swapped.db, journal: journal.db).lacking == 2)
        let extra = try index(changes + [.createAlbum(id: "album-2", title: "More", createdAt: Self.base)])
        let more = try CatalogDifference(index: extra.db, journal: journal.db)
        #expect(more.extra == 1 && more.lacking == 0)
    }

    /// A record longer than a read (an album add of many assets) is read whole.
    @Test func aRecordLongerThanAReadIsReadWhole() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = try Self.library(dir)
            let journal = LibraryJournal(libraryRoot: url.path)
            try journal.append(Self.records)
            let reading = try journal.read(limit: 64)
            #expect(!reading.entries.isEmpty)
            var count = 0
            var next = reading
            while !next.entries.isEmpty {
                count += next.entries.count
                next = try journal.read(from: next.end, limit: 64)
            }
            #expect(count == 40)
        }
    }
}
