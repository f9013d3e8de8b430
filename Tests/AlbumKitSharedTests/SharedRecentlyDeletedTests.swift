#if os(Linux)
    import Foundation
    import Testing

    @testable import AlbumKitCore
    @testable import AlbumKitShared

    extension SharedServerTests {
        /// Deleting from a shared library is never final at once: assets and albums wait in
        /// recently deleted, restorable with their albums, until the retention has passed.
        @Suite struct SharedRecentlyDeletedTests {
            @Test func aDeletedPhotoComesBackIntoItsAlbumsAndGcKeepsItsOriginal() async throws {
                let shared = try SharedTestLibrary()
                let photo = try await shared.library.album(titled: "Summer").save(
                    .file(SharedServers.examples.appendingPathComponent("harbour.jpg")))
                _ = try await shared.library.addAssets(
                    withIDs: [photo.assetID],
                    toAlbumWithID: try await shared.backend.createAlbum(
                        titled: try AlbumTitle("Best")
                    ).id)
                let deleted = try await shared.library.deleteAssets(withIDs: [photo.assetID])
                let until = try #require(deleted.first?.restorableUntil)
                #expect(abs(until.timeIntervalSinceNow - 30 * 86_400) < 3_600)
                #expect(try await shared.library.assets(inAlbumTitled: "Summer").isEmpty)
                #expect(try await shared.library.albums().map(\.count) == [0, 0])
                #expect(try await shared.library.assets(orderedBy: .dateAdded, limit: 10).assets.isEmpty)
                let listed = try await shared.library.recentlyDeleted()
                #expect(listed.map(\.id) == [photo.assetID])
                #expect(listed.first?.albums == ["Summer", "Best"] && listed.first?.name == "harbour.jpg")
                // gc keeps what recently deleted still needs; verify still checks it.
                let gc = try await shared.library.collectGarbage()
                #expect(gc.removedObjects == 0 && gc.removedAssets == 0)
                #expect(try shared.objects().count == 1)
                #expect(try await shared.library.verify().checkedAssets == 1)
                // Restored: back in both albums, at its place, nothing left in recently deleted.
                let restored = try await shared.library.restoreDeleted(withIDs: [photo.assetID])
                #expect(restored.map(\.id) == [photo.assetID])
                #expect(try await shared.library.assets(inAlbumTitled: "Summer").map(\.id) == [photo.assetID])
                #expect(try await shared.library.assets(inAlbumTitled: "Best").map(\.id) == [photo.assetID])
                #expect(try await shared.library.recentlyDeleted().isEmpty)
                // An id that is not there restores nothing.
                #expect(
                    await errorCode { try await shared.library.restoreDeleted(withIDs: [photo.assetID, "nope"]) }
                        == .assetNotFound)
            }

            @Test func aDeletedAlbumIsRestoredWithItsPhotosAndItsTitleIsFreeMeanwhile() async throws {
                let shared = try SharedTestLibrary()
                let first = try await shared.library.album(titled: "Trips").save(
                    .file(SharedServers.examples.appendingPathComponent("garden.png")))
                let albumID = try #require(first.albumID)
                try await shared.library.deleteAlbum(titled: "Trips")
                #expect(try await shared.library.albums().isEmpty)
                let item = try #require(try await shared.library.recentlyDeleted().first)
                #expect(item.kind == .album && item.id == albumID && item.count == 1 && item.name == "Trips")
                // A save into the title meanwhile makes a new album; the deleted one is not found.
                let again = try await shared.library.album(titled: "Trips").save(
                    .file(SharedServers.examples.appendingPathComponent("harbour.jpg")))
                #expect(again.albumOutcome == .recreated && again.albumID != albumID)
                _ = try await shared.library.restoreDeleted(withIDs: [albumID])
                let albums = try await shared.library.albums()
                #expect(Set(albums.map(\.id)) == [albumID, try #require(again.albumID)])
                #expect(try await shared.library.assets(inAlbumWithID: albumID).map(\.id) == [first.assetID])
            }

            @Test func gcRemovesOnlyWhatOutlivedTheRetentionAndPurgeRemovesOnRequest() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let files = try (0..<3).map { try SharedTestLibrary.uniqueJPEG(in: directory, "p\($0)") }
                    let saved = await shared.library.album(titled: "A").save(files.map { .file($0) }).compactMap(
                        \.value)
                    #expect(saved.count == 3)
                    let ids = saved.map(\.assetID)
                    _ = try await shared.library.deleteAssets(withIDs: ids)
                    try await shared.library.deleteAlbum(titled: "A")
                    // The retention is the library's: 7 days. One asset and the album were deleted 8 days ago.
                    try await shared.library.changeSharedSettings(retentionDays: 7)
                    // The server keeps deletion times its own (a trigger): the owner sets it aside to age them.
                    try shared.sql("ALTER TABLE asset DISABLE TRIGGER albumkit_guard")
                    try shared.sql("ALTER TABLE album DISABLE TRIGGER albumkit_guard")
                    try shared.sql(
                        "UPDATE asset SET deleted_at = deleted_at - 8 * 86400 WHERE id = $1", [ids[0]])
                    try shared.sql("UPDATE album SET deleted_at = deleted_at - 8 * 86400")
                    try shared.sql(
                        "UPDATE asset SET deleted_at = deleted_at - 6 * 86400 WHERE id = $1", [ids[1]])
                    try shared.sql("ALTER TABLE asset ENABLE TRIGGER albumkit_guard")
                    try shared.sql("ALTER TABLE album ENABLE TRIGGER albumkit_guard")
                    let gc = try await shared.library.collectGarbage()
                    #expect(gc.removedAssets == 1 && gc.removedAlbums == 1 && gc.removedObjects == 1)
                    #expect(try shared.objects().count == 2)
                    #expect(Set(try await shared.library.recentlyDeleted().map(\.id)) == [ids[1], ids[2]])
                    // Removed for good on request: one by id, then everything.
                    #expect(try await shared.library.removeDeletedPermanently(withIDs: [ids[1]]).removedObjects == 1)
                    #expect(
                        await errorCode { try await shared.library.removeDeletedPermanently(withIDs: [ids[0]]) }
                            == .assetNotFound)
                    let emptied = try await shared.library.emptyRecentlyDeleted()
                    #expect(emptied.removedAssets == 1 && emptied.removedObjects == 1)
                    #expect(try shared.objects().isEmpty)
                    #expect(try await shared.library.verify().isHealthy)
                }
            }

            @Test func savingADeletedPhotoAgainBringsItBack() async throws {
                let shared = try SharedTestLibrary()
                let url = SharedServers.examples.appendingPathComponent("harbour.jpg")
                let first = try await shared.library.album(titled: "A").save(.file(url))
                _ = try await shared.library.deleteAssets(withIDs: [first.assetID])
                let again = try await shared.library.album(titled: "B").save(.file(url))
                #expect(again.assetID == first.assetID && again.isExisting)
                #expect(try await shared.library.recentlyDeleted().isEmpty)
                #expect(try await shared.library.assets(inAlbumTitled: "B").map(\.id) == [first.assetID])
                #expect(try await shared.library.assets(inAlbumTitled: "A").map(\.id) == [first.assetID])
            }

            /// `album` as a user runs it: delete-asset, deleted, restore, purge, gc and config, in
            /// text and JSON.
            @Test func theCommandLineListsRestoresAndPurges() async throws {
                let shared = try SharedTestLibrary()
                let saved = try await shared.library.album(titled: "Family").save(
                    .file(SharedServers.examples.appendingPathComponent("garden.png")))
                let env = shared.environment
                let delete = Shell.run(Shell.album, ["delete-asset", saved.assetID], environment: env)
                #expect(delete.status == 0 && delete.stdout.contains("album restore \(saved.assetID)"), "\(delete)")
                let listed = Shell.run(Shell.album, ["--json", "deleted"], environment: env)
                let items = try #require(
                    try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
                #expect(items.first?["id"] as? String == saved.assetID)
                #expect(items.first?["albums"] as? [String] == ["Family"] && items.first?["kind"] as? String == "asset")
                let gc = Shell.run(Shell.album, ["--json", "gc"], environment: env)
                let report = try #require(
                    try JSONSerialization.jsonObject(with: Data(gc.stdout.utf8)) as? [String: Int])
                #expect(report["removedObjects"] == 0 && report["removedAssets"] == 0, "\(gc)")
                let restore = Shell.run(Shell.album, ["restore", saved.assetID], environment: env)
                #expect(restore.status == 0 && restore.stdout.contains("into \"Family\""), "\(restore)")
                #expect(try await shared.library.assets(inAlbumTitled: "Family").count == 1)
                #expect(Shell.run(Shell.album, ["purge"], environment: env).status == 2)
                _ = Shell.run(Shell.album, ["delete-asset", saved.assetID], environment: env)
                let purge = Shell.run(Shell.album, ["--json", "purge", "--all"], environment: env)
                #expect(purge.stdout.contains("\"removedObjects\":1"), "\(purge)")
                let config = Shell.run(Shell.album, ["--json", "config", "--retention-days", "60"], environment: env)
                #expect(config.stdout.contains("\"retentionDays\":60"), "\(config)")
                #expect(try await shared.library.sharedSettings().retentionDays == 60)
                #expect(!Shell.run(Shell.album, ["deleted"], environment: env).stderr.contains("\\n"))
            }

            /// A library made by the previous schema (no recently deleted) is brought up to date when
            /// it is opened, and keeps its photos.
            @Test func aLibraryOfTheFirstSchemaIsUpgradedWhenOpened() async throws {
                let shared = try SharedTestLibrary()
                let saved = try await shared.library.album(titled: "Old").save(
                    .file(SharedServers.examples.appendingPathComponent("harbour.jpg")))
                try shared.sql(
                    """
                    ALTER TABLE asset DROP COLUMN deleted_at, DROP COLUMN saved_host, DROP COLUMN saved_user,
                        DROP COLUMN saved_role, DROP COLUMN favorite;
                    ALTER TABLE album DROP COLUMN deleted_at;
                    UPDATE albumkit_setting SET value = '1' WHERE name = 'schema_version';
                    DELETE FROM albumkit_setting WHERE name = 'addressing'
                    """)
                let reopened = PhotoLibrary(
                    backend: try SharedBackend.open(url: shared.url, environment: shared.environment))
                #expect(
                    try shared.sql("SELECT value FROM albumkit_setting WHERE name = 'schema_version'")[0][0]
                        == String(SharedSchema.version))
                #expect(try await reopened.assets(inAlbumTitled: "Old").map(\.id) == [saved.assetID])
                _ = try await reopened.deleteAssets(withIDs: [saved.assetID])
                #expect(try await reopened.recentlyDeleted().count == 1)
            }
        }
    }
#endif
