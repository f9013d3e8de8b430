#if os(Linux)
    import AlbumKitConformance
    import AlbumTestSupport
    import Foundation
    import Testing

    @testable import AlbumKitCore
    @testable import AlbumKitShared

    /// A save into an album of a shared library looks for the album's photos of its files' names
    /// only (`asset_by_name_key`), and still tells a new version of one of them.
    extension SharedServerTests {
        @Suite struct SharedNameLookupTests {
            @Test(
                "an album of 100 000: a photo's earlier versions are found by a seek on its name, the album's rows never read"
            )
            func anAlbumOfAHundredThousandIsNotRead() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let photo = try SharedTestLibrary.uniqueJPEG(in: directory, "IMG_0001")
                    let saved = try await shared.library.album(titled: "All").save(.file(photo))
                    let albumID = try #require(saved.albumID)
                    // 100 000 more members, written as rows (a save of each would take minutes).
                    try shared.sql(
                        """
                        INSERT INTO asset (id, sha256, kind, format, original_name, byte_size, added_at)
                        SELECT 'bulk-' || i, md5('a' || i) || md5('b' || i), 'photo', 'jpeg',
                            'IMG_' || lpad(i::text, 6, '0') || '.JPG', 1000, 0
                        FROM generate_series(1, 100000) i
                        """)
                    try shared.sql(
                        """
                        INSERT INTO album_asset (album_id, asset_id, position, added_at)
                        SELECT $1, 'bulk-' || i, i + 10, 0 FROM generate_series(1, 100000) i
                        """, [albumID])
                    try shared.sql("ANALYZE asset")
                    try shared.sql("ANALYZE album_asset")
                    let found = try await shared.library.assets(
                        inAlbumWithID: albumID, originallyNamed: ["img_050000.jpg", "IMG_0001.JPG", "none.jpg"])
                    #expect(Set(found.map(\.id)) == ["bulk-50000", saved.assetID])
                    // The plan PostgreSQL chooses with the album's statistics: the names' index, then
                    // a seek of each asset's memberships; no table read whole, the album's order unused.
                    let plan = try shared.sql(
                        "EXPLAIN " + SharedBackend.albumAssetsByNameSQL, [albumID, #"["img_050000.jpg"]"#]
                    ).compactMap { $0.first ?? nil }.joined(separator: "\n")
                    #expect(plan.contains("Index Scan using asset_by_name_key on asset"), "\(plan)")
                    #expect(!plan.contains("Seq Scan") && !plan.contains("album_asset_order"), "\(plan)")
                    // The start of an id is a range of the ids' index in bytes, whatever the
                    // database's collation: `bulk-5000` names 11 of the 100 001.
                    let byStart = try await shared.library.assets(possiblyNamedBy: ["bulk-5000"])
                    #expect(Set(byStart[0].map(\.id)) == Set(["bulk-5000"] + (0...9).map { "bulk-5000\($0)" }))
                    let startPlan = try shared.sql(
                        "EXPLAIN " + SharedBackend.possiblyNamedSQL, ["bulk-5000", nil, "1000"]
                    ).compactMap { $0.first ?? nil }.joined(separator: "\n")
                    #expect(startPlan.contains("asset_by_id_bytes"), "\(startPlan)")
                    #expect(!startPlan.contains("Seq Scan"), "\(startPlan)")
                }
            }

            @Test(
                "an asset named by its id, the start of one or its file name: chosen on the server, as a reading of every asset would"
            )
            func referencesAreChosenOnTheServer() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    var saved: [String] = []
                    // Two names A–Z apart in case, in two albums (in one, the second would be a new
                    // version of the first).
                    for (name, album) in [("IMG_0001", "Trip"), ("img_0001", "Other"), ("harbour", "Trip")] {
                        let photo = try SharedTestLibrary.uniqueJPEG(in: directory, name)
                        saved.append(try await shared.library.album(titled: album).save(.file(photo)).assetID)
                    }
                    let best = try await shared.library.createAlbum(titled: "Best")
                    try await shared.library.addAssets(withIDs: [saved[1]], toAlbumWithID: best.id)
                    _ = try await shared.library.deleteAssets(withIDs: [saved[2]])
                    let every = try await shared.library.assets(orderedBy: .dateAdded, limit: 100).assets
                    let references = [
                        saved[0], String(saved[0].prefix(8)), String(saved[0].prefix(3)), "IMG_0001.jpg",
                        "img_0001.jpg",
                        "Img_0001.jpg", "harbour.jpg", saved[2], "nothing", "%", "_",
                    ]
                    let found = try await shared.library.assets(possiblyNamedBy: references)
                    let inBest = try await shared.library.assets(possiblyNamedBy: references, inAlbumWithID: best.id)
                    for (index, reference) in references.enumerated() {
                        let expected = Set(every.filter { $0.mayBeNamed(by: reference) }.map(\.id))
                        #expect(Set(found[index].map(\.id)) == expected, "\(reference)")
                        #expect(Set(inBest[index].map(\.id)) == expected.intersection([saved[1]]), "\(reference)")
                    }
                    #expect(found[0].map(\.id) == [saved[0]] && found[3].map(\.id) == [saved[0]])
                    #expect(found[2].isEmpty && found[6].isEmpty && found[7].isEmpty)
                }
            }

            @Test func aVersion6LibraryGetsTheIndexesOfNamesAndIDsWhenUpgraded() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let saved = try await shared.library.album(titled: "Trip").save(
                        .file(try SharedTestLibrary.uniqueJPEG(in: directory, "Version6")))
                    // As version 6 left it: no index of names, none of ids in bytes.
                    try shared.sql(
                        """
                        DROP INDEX asset_by_name_key; DROP INDEX asset_by_id_bytes;
                        UPDATE albumkit_setting SET value = '6' WHERE name = 'schema_version'
                        """)
                    let upgraded = PhotoLibrary(
                        backend: try SharedBackend.open(url: shared.url, environment: shared.environment))
                    let indexes = try shared.sql(
                        "SELECT indexname FROM pg_indexes WHERE indexname IN ('asset_by_name_key', 'asset_by_id_bytes')"
                    )
                    #expect(indexes.count == 2)
                    #expect(
                        try shared.sql("SELECT value FROM albumkit_setting WHERE name = 'schema_version'")[0][0]
                            == String(SharedSchema.version))
                    let found = try await upgraded.assets(
                        inAlbumWithID: try #require(saved.albumID), originallyNamed: ["VERSION6.JPG"])
                    #expect(found.map(\.id) == [saved.assetID])
                }
            }

            /// Version 8 adds an index only: a member who may not add it uses a version 7 library as
            /// it is (before, they were refused until the owner ran `album init`); a member of a
            /// version 6 library still is; the owner's next opening brings it to this version.
            @Test func aMemberUsesAVersion7LibraryTheyMayNotUpgrade() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let roles = try await shared.library.createMemberRoles()
                    let database = String(shared.url.split(separator: "/").last!)
                    let saved = try await shared.library.album(titled: "Trip").save(
                        .file(try SharedTestLibrary.uniqueJPEG(in: directory, "Version7")))
                    let writerURL = try SharedMembersTests.member(database + "_wen", of: roles.writer, in: shared)
                    try shared.sql(
                        "DROP INDEX asset_by_id_bytes; UPDATE albumkit_setting SET value = '7' WHERE name = 'schema_version'"
                    )
                    let writer = PhotoLibrary(
                        backend: try SharedBackend.open(url: writerURL, environment: shared.environment))
                    let again = try await writer.album(titled: "Trip").save(
                        .file(try SharedTestLibrary.uniqueJPEG(in: directory, "By the member")))
                    let found = try await writer.assets(possiblyNamedBy: [String(saved.assetID.prefix(8))])
                    #expect(found[0].map(\.id) == [saved.assetID])
                    #expect(again.albumID == saved.albumID)
                    #expect(
                        try shared.sql("SELECT value FROM albumkit_setting WHERE name = 'schema_version'")[0][0] == "7")
                    // Version 6 lacks more than an index: the member is told to ask the owner.
                    try shared.sql("UPDATE albumkit_setting SET value = '6' WHERE name = 'schema_version'")
                    let refused = await Fixture.errorCode {
                        try SharedBackend.open(url: writerURL, environment: shared.environment)
                    }
                    #expect(refused == .accessDenied)
                    // The owner's opening upgrades it.
                    _ = try SharedBackend.open(url: shared.url, environment: shared.environment)
                    #expect(try shared.sql("SELECT 1 FROM pg_indexes WHERE indexname = 'asset_by_id_bytes'").count == 1)
                    #expect(
                        try shared.sql("SELECT value FROM albumkit_setting WHERE name = 'schema_version'")[0][0]
                            == String(SharedSchema.version))
                }
            }

            @Test("a photo edited in place and saved again into its album of a shared library is told as a new version")
            func aNewVersionIsTold() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let original = try Data(contentsOf: SharedServers.examples.appendingPathComponent("harbour.jpg"))
                    let first = directory.appendingPathComponent("HARBOUR.JPG")
                    try original.write(to: first)
                    let saved = Shell.run(
                        Shell.album, ["save", "--album", "Trip", first.path], environment: shared.environment)
                    #expect(saved.status == 0, "\(saved.stderr)")
                    // Edited in place (other bytes, the same capture time), its name now in lower case.
                    let edited = directory.appendingPathComponent("harbour.jpg")
                    try (original + Data("edited".utf8)).write(to: edited)
                    let again = Shell.run(
                        Shell.album, ["save", "--album", "Trip", edited.path], environment: shared.environment)
                    #expect(again.status == 0, "\(again.stderr)")
                    #expect(again.stdout.contains("a new version of the one already in the album"), "\(again.stdout)")
                }
            }
        }
    }
#endif
