#if os(Linux)
    import Foundation
    import Testing

    @testable import AlbumKitCore
    @testable import AlbumKitShared

    extension SharedServerTests {
        /// What the server enforces against a member who edits the tables by hand, and what AlbumKit
        /// refuses to believe or to record: forged deletion times, changed object names, rows naming
        /// objects in another form, credentials in the store's endpoint.
        @Suite struct SharedTrustTests {
            /// A writer of the library (a login role in its writer role) and its URL.
            static func writer(of shared: SharedTestLibrary, _ name: String) async throws -> (PhotoLibrary, String) {
                let roles = try await shared.library.createMemberRoles()
                let database = String(shared.url.split(separator: "/").last!)
                let url = try SharedMembersTests.member(database + "_" + name, of: roles.writer, in: shared)
                return (PhotoLibrary(backend: try SharedBackend.open(url: url, environment: shared.environment)), url)
            }

            /// The deletion time the server holds for asset `id` (seconds since 1970).
            static func deletedAt(_ shared: SharedTestLibrary, asset id: String) throws -> Double? {
                let value: String? =
                    try shared.sql("SELECT deleted_at FROM asset WHERE id = $1", [id]).first?.first ?? nil
                return value.flatMap { Double($0) }
            }

            @Test func aWriterCannotForgeWhenAPhotoWasDeletedNorWhichOriginalItNames() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let (writer, writerURL) = try await Self.writer(of: shared, "eve")
                    let files = try (0..<4).map { try SharedTestLibrary.uniqueJPEG(in: directory, "w\($0)") }
                    let saved = await writer.album(titled: "Trip").save(files.map { .file($0) }).compactMap(\.value)
                    try #require(saved.count == 4)
                    let ids = saved.map(\.assetID)
                    let objects = try shared.objects()
                    let sql = try PostgresConnection(url: writerURL)
                    let before = Date().timeIntervalSince1970

                    // Deleted "in 1970", directly in SQL: the server records its own time instead.
                    try sql.execute("UPDATE asset SET deleted_at = 1 WHERE id = $1", [ids[0]])
                    try sql.execute("UPDATE album SET deleted_at = 1")
                    let recorded = try #require(try Self.deletedAt(shared, asset: ids[0]))
                    #expect(recorded >= before - 120, "the forged deletion time \(recorded) was kept")
                    #expect(
                        (try shared.sql("SELECT deleted_at FROM album")[0][0]).flatMap(Double.init).map {
                            $0 >= before - 120
                        } == true)
                    // An asset deleted already, then its time moved back: the server's time again.
                    _ = try await writer.deleteAssets(withIDs: [ids[1]])
                    try sql.execute("UPDATE asset SET deleted_at = deleted_at - 40 * 86400 WHERE id = $1", [ids[1]])
                    #expect(try #require(try Self.deletedAt(shared, asset: ids[1])) >= before - 120)
                    // The original an asset names never changes: another digest, or a path, is refused.
                    for forged in [String(repeating: "0", count: 64), "../other/originals/ab/x"] {
                        #expect(throws: PostgresError.self) {
                            try sql.execute("UPDATE asset SET sha256 = $1 WHERE id = $2", [forged, ids[2]])
                        }
                    }
                    // Nor may a writer rewrite who saved a photo, or its size; not even the owner
                    // may change the original an asset names.
                    #expect(throws: PostgresError.self) {
                        try sql.execute("UPDATE asset SET saved_role = 'someone else' WHERE id = $1", [ids[2]])
                    }
                    #expect(throws: PostgresError.self) {
                        try sql.execute("UPDATE asset SET byte_size = 1 WHERE id = $1", [ids[2]])
                    }
                    #expect(throws: PostgresError.self) {
                        try shared.sql(
                            "UPDATE asset SET sha256 = $1 WHERE id = $2", [String(repeating: "1", count: 64), ids[2]])
                    }
                    // A row inserted already deleted gets the server's time too.
                    let digest = String(repeating: "a", count: 64)
                    try sql.execute(
                        """
                        INSERT INTO asset (id, sha256, kind, format, byte_size, added_at, deleted_at)
                        VALUES ('planted', $1, 'photo', 'jpeg', 1, 0, 1)
                        """, [digest])
                    #expect(try #require(try Self.deletedAt(shared, asset: "planted")) >= before - 120)

                    // The owner's routine gc removes nothing: everything is within its 30 days.
                    let gc = try await shared.library.collectGarbage()
                    #expect(gc.removedAssets == 0 && gc.removedAlbums == 0 && gc.removedObjects == 0, "\(gc)")
                    #expect(try shared.objects() == objects)
                    #expect(Set(try await shared.library.recentlyDeleted().map(\.id)).isSuperset(of: [ids[0], ids[1]]))

                    // The writer's own work goes on: restore, delete, save again.
                    _ = try await writer.restoreDeleted(withIDs: [ids[0], ids[1]])
                    _ = try await writer.deleteAssets(withIDs: [ids[3]])
                    let again = try await writer.album(titled: "Trip 2").save(.file(files[3]))
                    #expect(again.assetID == ids[3] && again.isExisting)
                    #expect(try Self.deletedAt(shared, asset: ids[3]) == nil)
                    try shared.sql("DELETE FROM asset WHERE id = 'planted'")
                    #expect(try await shared.library.verify().isHealthy)
                }
            }

            @Test func aCompanionAWriterRemovesInSQLStaysForTheRetention() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let (writer, writerURL) = try await Self.writer(of: shared, "raw")
                    let saved = try await writer.save(try SharedCompanionTests.pair(in: directory).media)
                    let objects = try shared.objects()
                    #expect(objects.count == 3)
                    // The raw's row deleted, the sidecar's pointed at other bytes, by hand.
                    let sql = try PostgresConnection(url: writerURL)
                    try sql.execute("DELETE FROM asset_companion WHERE asset_id = $1 AND role = 'raw'", [saved.assetID])
                    try sql.execute(
                        "UPDATE asset_companion SET sha256 = $1 WHERE asset_id = $2",
                        [String(repeating: "b", count: 64), saved.assetID])
                    // The record of what was released is the server's: neither dated nor removed by a member.
                    #expect(throws: PostgresError.self) {
                        try sql.execute(
                            "INSERT INTO released_object (sha256, released_at) VALUES ($1, 0)",
                            [String(repeating: "c", count: 64)])
                    }
                    #expect(throws: PostgresError.self) { try sql.execute("DELETE FROM released_object") }
                    #expect(throws: PostgresError.self) {
                        try sql.execute("UPDATE released_object SET released_at = 0")
                    }
                    // The owner's gc keeps both objects for the retention, then removes them.
                    #expect(try await shared.library.collectGarbage().removedObjects == 0)
                    #expect(try shared.objects() == objects)
                    try shared.sql("UPDATE released_object SET released_at = released_at - 31 * 86400")
                    #expect(try await shared.library.collectGarbage().removedObjects == 2)
                    #expect(try shared.objects().count == 1)
                    #expect(try shared.sql("SELECT count(*) FROM released_object")[0][0] == "0")
                }
            }

            @Test func anOlderLibraryGetsTheGuardsAndItsForgedDeletionTimesStartAgain() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let (writer, writerURL) = try await Self.writer(of: shared, "old")
                    let saved = try await writer.album(titled: "Old").save(
                        .file(try SharedTestLibrary.uniqueJPEG(in: directory, "old")))
                    let objects = try shared.objects()
                    // As version 4 left it (no guard), with a time forged by a writer meanwhile and an
                    // endpoint recorded with an access key and secret in it.
                    let endpoint = try SharedServers.environment()["ALBUMKIT_S3_ENDPOINT"]!
                    try shared.sql(
                        """
                        DROP TRIGGER IF EXISTS albumkit_guard ON asset;
                        DROP TRIGGER IF EXISTS albumkit_guard ON album;
                        GRANT UPDATE ON asset, album TO \(String(shared.url.split(separator: "/").last!))_writer;
                        UPDATE albumkit_setting SET value = '4' WHERE name = 'schema_version';
                        UPDATE albumkit_setting SET value = $1 WHERE name = 'endpoint';
                        """.replacingOccurrences(
                            of: "$1",
                            with: SharedSchema.literal(
                                endpoint.replacingOccurrences(of: "://", with: "://albumkit:leaked-secret@"))))
                    try PostgresConnection(url: writerURL).execute(
                        "UPDATE asset SET deleted_at = 1 WHERE id = $1", [saved.assetID])

                    // The owner opens it: upgraded; the forged time starts again, the secret is gone.
                    let upgraded = PhotoLibrary(
                        backend: try SharedBackend.open(url: shared.url, environment: shared.environment))
                    #expect(
                        try shared.sql("SELECT value FROM albumkit_setting WHERE name = 'schema_version'")[0][0]
                            == String(SharedSchema.version))
                    #expect(try Self.deletedAt(shared, asset: saved.assetID).map { $0 > 86_400 } == true)
                    #expect(
                        try shared.sql("SELECT value FROM albumkit_setting WHERE name = 'endpoint'")[0][0] == endpoint)
                    let gc = try await upgraded.collectGarbage()
                    #expect(gc.removedAssets == 0 && gc.removedObjects == 0, "\(gc)")
                    #expect(try shared.objects() == objects)
                    // And the guard is there for the writer from now on, with its rights narrowed.
                    #expect(throws: PostgresError.self) {
                        try PostgresConnection(url: writerURL).execute("UPDATE asset SET saved_role = 'x'")
                    }
                    try PostgresConnection(url: writerURL).execute(
                        "UPDATE asset SET deleted_at = 2 WHERE id = $1", [saved.assetID])
                    #expect(try Self.deletedAt(shared, asset: saved.assetID).map { $0 > 86_400 } == true)
                }
            }

            @Test func anEndpointWithCredentialsInItIsRefusedAndNeverPrinted() async throws {
                try await withTemporaryDirectory { directory in
                    let exports = try SharedServers.environment()
                    let endpoint = exports["ALBUMKIT_S3_ENDPOINT"]!
                    let secret = "s3cr3t-" + UUID().uuidString.prefix(8)
                    let leaky = endpoint.replacingOccurrences(of: "://", with: "://albumkit:\(secret)@")

                    // `init` refuses it before it records anything.
                    let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
                    try PostgresConnection(url: exports["ALBUMKIT_LIBRARY"]!).execute("CREATE DATABASE \(name)")
                    let base = exports["ALBUMKIT_LIBRARY"]!
                    let fresh = String(base[..<base.lastIndex(of: "/")!]) + "/" + name
                    do {
                        _ = try SharedBackend.initialize(
                            url: fresh,
                            location: ObjectStoreLocation(
                                endpoint: leaky, bucket: exports["ALBUMKIT_S3_BUCKET"]!, prefix: "\(name)/"),
                            environment: ProcessInfo.processInfo.environment.merging(exports) { $1 })
                        Issue.record("an endpoint with a secret in it was recorded")
                    } catch let error as AlbumError {
                        #expect(error.code == .invalidArgument, "\(error)")
                        #expect(!error.message.contains(secret), "\(error.message)")
                        #expect(error.message.contains("credentials"), "\(error.message)")
                    }
                    #expect(
                        try PostgresConnection(url: fresh).execute(
                            "SELECT count(*) FROM pg_tables WHERE tablename = 'albumkit_setting'")[0][0] == "0")

                    // `config --endpoint` refuses it too, on the command line and in the API.
                    let shared = try SharedTestLibrary()
                    #expect(
                        await errorCode { try await shared.library.changeSharedSettings(endpoint: leaky) }
                            == .invalidArgument)
                    let config = Shell.run(
                        Shell.album, ["--library", shared.url, "config", "--endpoint", leaky],
                        environment: shared.environment)
                    #expect(config.status != 0)
                    #expect(!(config.stdout + config.stderr).contains(secret), "\(config)")
                    #expect(
                        try shared.sql("SELECT value FROM albumkit_setting WHERE name = 'endpoint'")[0][0] == endpoint)

                    // One recorded by hand (or by an older AlbumKit) is never printed, nor used.
                    try shared.sql("UPDATE albumkit_setting SET value = $1 WHERE name = 'endpoint'", [leaky])
                    for arguments in [["config"], ["--json", "config"]] {
                        let printed = Shell.run(
                            Shell.album, ["--library", shared.url] + arguments, environment: shared.environment)
                        #expect(printed.status == 0, "\(printed)")
                        #expect(printed.stdout.contains(endpoint), "\(printed)")
                        #expect(!(printed.stdout + printed.stderr).contains(secret), "\(printed)")
                    }
                    let reopened = PhotoLibrary(
                        backend: try SharedBackend.open(url: shared.url, environment: shared.environment))
                    #expect(try await reopened.sharedSettings().store.endpoint == endpoint)
                    _ = try await reopened.save(.file(try SharedTestLibrary.uniqueJPEG(in: directory, "after")))
                    #expect(try await reopened.verify().isHealthy)
                }
            }

            @Test func rowsNamingObjectsInAnotherFormAreDamagedAndNeverFollowed() async throws {
                try await withTemporaryDirectory { directory in
                    // Two libraries in one bucket; B's photo is what forged rows of A point at.
                    let a = try SharedTestLibrary()
                    let b = try SharedTestLibrary()
                    let photo = try SharedTestLibrary.uniqueJPEG(in: directory, "b")
                    _ = try await b.library.save(.file(photo))
                    let sha = try #require(try b.sql("SELECT sha256 FROM asset")[0][0])
                    let objectsB = try b.objects()
                    let kept = try await a.library.album(titled: "Kept").save(
                        .file(try SharedTestLibrary.uniqueJPEG(in: directory, "a")))
                    let withSidecar = try await a.library.album(titled: "Kept").save(
                        .file(try SharedTestLibrary.uniqueJPEG(in: directory, "c")))
                    let forged = "../" + b.prefix + "originals/\(sha.prefix(2))/\(sha)"
                    let size = String(try Data(contentsOf: photo).count)
                    // Rows an older AlbumKit, a hand edit or a restored dump could hold: the server's
                    // checks set aside to plant them.
                    try a.sql(
                        """
                        ALTER TABLE asset DROP CONSTRAINT IF EXISTS asset_sha256_form;
                        ALTER TABLE asset_companion DROP CONSTRAINT IF EXISTS asset_companion_sha256_form;
                        ALTER TABLE asset DISABLE TRIGGER USER
                        """)
                    for (id, deleted) in [("forged-live", "NULL"), ("forged-old", "1")] {
                        try a.sql(
                            """
                            INSERT INTO asset (id, sha256, kind, format, original_name, byte_size, added_at, deleted_at)
                            VALUES ($1, $2, 'photo', 'jpeg', 'b.jpg', $3, 0, \(deleted))
                            """, [id, id == "forged-live" ? forged : forged + "/", size])
                    }
                    try a.sql(
                        """
                        INSERT INTO asset_companion (asset_id, name, role, sha256, byte_size, position)
                        VALUES ($1, 'b.xmp', 'sidecar', $2, $3, 1)
                        """, [withSidecar.assetID, forged, size])
                    let albumID: String = try #require(kept.albumID)
                    try a.sql(
                        "INSERT INTO album_asset (album_id, asset_id, position, added_at) VALUES ($1, 'forged-live', 9, 0)",
                        [albumID])
                    try a.sql("ALTER TABLE asset ENABLE TRIGGER USER")

                    // Downloads refuse them, naming the asset; the intact photo is exported.
                    let out = directory.appendingPathComponent("out")
                    let exported = try await a.library.exportAlbum(titled: "Kept", to: out)
                    #expect(exported.exported.map(\.name) == ["a.jpg"], "\(exported)")
                    #expect(
                        Set(exported.failures.map(\.assetID)) == ["forged-live", withSidecar.assetID],
                        "\(exported.failures)")
                    #expect(
                        exported.failures.allSatisfy {
                            $0.code == .libraryCorrupt && $0.message.contains("not a SHA-256")
                        })
                    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("b.jpg").path))
                    // Verify names each damaged row.
                    let report = try await a.library.verify()
                    #expect(
                        report.problems.filter { $0.contains("damaged") && $0.contains("not a SHA-256") }.count == 3,
                        "\(report.problems)")
                    // Removing them for good removes the rows, never an object they name.
                    let gc = try await a.library.collectGarbage()
                    #expect(gc.removedAssets == 1 && gc.removedObjects == 0, "\(gc)")
                    _ = try await a.library.deleteAssets(withIDs: ["forged-live"])
                    let emptied = try await a.library.emptyRecentlyDeleted()
                    #expect(emptied.removedAssets == 1 && emptied.removedObjects == 0, "\(emptied)")
                    #expect(try b.objects() == objectsB)
                    #expect(try await b.library.verify().isHealthy)
                }
            }
        }
    }
#endif
