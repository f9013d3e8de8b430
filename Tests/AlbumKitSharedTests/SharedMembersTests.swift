#if os(Linux)
    import Foundation
    import Testing

    @testable import AlbumKitCore
    @testable import AlbumKitShared

    extension SharedServerTests {
        /// Readers and writers: the roles `album init --print-roles` prints, what each may do, and who
        /// saved each photo.
        @Suite struct SharedMembersTests {
            /// A login role in `group`, with the test servers' password (libpq reads `PGPASSWORD`),
            /// and the library's URL as that role.
            static func member(_ name: String, of group: String, in shared: SharedTestLibrary) throws -> String {
                try shared.sql(
                    "CREATE ROLE \(name) LOGIN PASSWORD \(SharedSchema.literal(try SharedServers.environment()["PGPASSWORD"]!)) IN ROLE \(group)"
                )
                let host = shared.url.drop { $0 != "@" }
                return "postgres://\(name)" + host
            }

            @Test func aReaderListsShowsExportsAndVerifiesButItsSaveUploadsNothing() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let photo = try SharedTestLibrary.uniqueJPEG(in: directory, "family")
                    _ = try await shared.library.album(titled: "Family").save(.file(photo))
                    // The SQL init prints, run as the tables' owner (psql would do the same).
                    let printed = Shell.run(
                        Shell.album, ["--library", shared.url, "init", "--print-roles"], environment: shared.environment
                    )
                    #expect(printed.status == 0, "\(printed)")
                    #expect(printed.stdout.contains("GRANT SELECT ON"))
                    try shared.sql(printed.stdout)
                    let database = String(shared.url.split(separator: "/").last!)
                    let readerURL = try Self.member(database + "_anna", of: database + "_reader", in: shared)
                    let reader = PhotoLibrary(
                        backend: try SharedBackend.open(url: readerURL, environment: shared.environment))

                    // Everything that reads works.
                    #expect(try await reader.albums().map(\.title) == ["Family"])
                    #expect(try await reader.assets(inAlbumTitled: "Family").map(\.originalFilename) == ["family.jpg"])
                    let exported = try await reader.exportAlbum(
                        titled: "Family", to: directory.appendingPathComponent("out"))
                    #expect(exported.failures.isEmpty && exported.exported.map(\.name) == ["family.jpg"])
                    #expect(
                        try Data(contentsOf: directory.appendingPathComponent("out/family.jpg"))
                            == Data(contentsOf: photo))
                    #expect(try await reader.verify().isHealthy)

                    // A save is refused before anything reaches the store, naming the role.
                    let objects = try shared.objects()
                    let other = try SharedTestLibrary.uniqueJPEG(in: directory, "other")
                    do {
                        _ = try await reader.album(titled: "Family").save(.file(other))
                        Issue.record("a reader saved")
                    } catch let error as AlbumError {
                        #expect(error.code == .libraryUnwritable)
                        #expect(error.message.contains("read-only access"), "\(error.message)")
                        #expect(error.message.contains(database + "_anna"), "\(error.message)")
                    }
                    #expect(try shared.objects() == objects)
                    #expect(try shared.sql("SELECT count(*) FROM asset")[0][0] == "1")
                    #expect(try shared.sql("SELECT count(*) FROM upload_intent")[0][0] == "0")
                    // Changing an album is refused by the server, with the same code.
                    #expect(await errorCode { try await reader.createAlbum(titled: "Mine") } == .libraryUnwritable)

                    // The command line: the same refusal, and show lists who saved the photo.
                    var environment = shared.environment
                    environment["ALBUMKIT_LIBRARY"] = readerURL
                    let save = Shell.run(Shell.album, ["--json", "save", other.path], environment: environment)
                    #expect(save.status != 0)
                    #expect(save.stdout.contains("libraryUnwritable"), "\(save)")
                    #expect(try shared.objects() == objects)
                    let show = Shell.run(Shell.album, ["--json", "show", "Family"], environment: environment)
                    #expect(show.status == 0, "\(show)")
                    let line = try #require(
                        (try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [[String: Any]])?.first)
                    let savedBy = try #require(line["savedBy"] as? [String: String], "\(show)")
                    #expect(savedBy["databaseRole"] == "albumkit")
                    #expect(savedBy["host"] == ProcessInfo.processInfo.hostName || savedBy["host"]?.isEmpty == false)
                    #expect(savedBy["user"]?.isEmpty == false)
                    let table = Shell.run(Shell.album, ["show", "Family"], environment: environment)
                    #expect(table.stdout.contains("SAVED BY") && table.stdout.contains(" as albumkit"), "\(table)")
                }
            }

            @Test func aWriterSavesAsItsOwnRoleButRemovesNothingForGood() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let roles = try await shared.library.createMemberRoles()
                    #expect(roles.reader.hasSuffix("_reader") && roles.writer.hasSuffix("_writer"))
                    // Running it again changes nothing and does not fail (the roles exist).
                    _ = try await shared.library.createMemberRoles()
                    let database = String(shared.url.split(separator: "/").last!)
                    let name = database + "_ben"
                    let writer = PhotoLibrary(
                        backend: try SharedBackend.open(
                            url: try Self.member(name, of: roles.writer, in: shared), environment: shared.environment))
                    let photo = try SharedTestLibrary.uniqueJPEG(in: directory, "ben")
                    let saved = try await writer.album(titled: "Trip").save(.file(photo).with(isFavorite: true))
                    let asset = try #require(try await writer.assets(inAlbumTitled: "Trip").first)
                    #expect(asset.id == saved.assetID && asset.isFavorite)
                    #expect(asset.savedBy?.databaseRole == name)
                    #expect(asset.savedBy?.host?.isEmpty == false && asset.savedBy?.user?.isEmpty == false)
                    // Into recently deleted and back: yes. For good: only the owner.
                    _ = try await writer.deleteAssets(withIDs: [saved.assetID])
                    _ = try await writer.restoreDeleted(withIDs: [saved.assetID])
                    _ = try await writer.deleteAssets(withIDs: [saved.assetID])
                    #expect(await errorCode { try await writer.emptyRecentlyDeleted() } == .libraryUnwritable)
                    #expect(try shared.sql("SELECT count(*) FROM asset")[0][0] == "1")
                    #expect(try await shared.library.emptyRecentlyDeleted().removedAssets == 1)
                }
            }

            @Test(
                "Share links: a writer makes and revokes them and its wrong PINs are counted; a reader reads them, makes none; a row the table would not take is refused"
            )
            func shareLinksByRole() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let roles = try await shared.library.createMemberRoles()
                    let database = String(shared.url.split(separator: "/").last!)
                    let saved = try await shared.library.album(titled: "Trip").save(
                        .file(try SharedTestLibrary.uniqueJPEG(in: directory, "shared link")))
                    let albumID = try #require(saved.albumID)
                    let writer = PhotoLibrary(
                        backend: try SharedBackend.open(
                            url: try Self.member(database + "_wes", of: roles.writer, in: shared),
                            environment: shared.environment))
                    let reader = PhotoLibrary(
                        backend: try SharedBackend.open(
                            url: try Self.member(database + "_rea", of: roles.reader, in: shared),
                            environment: shared.environment))
                    let made = try await writer.createShareLink(
                        forAlbumWithID: albumID, rights: .viewAndAdd, pin: "2468")
                    #expect(try await reader.shareLinks().map(\.id) == [made.link.id])
                    #expect(try await reader.shareLink(forToken: made.token)?.rights == .viewAndAdd)
                    #expect(await errorCode { try await reader.createShareLink(forAlbumWithID: albumID) } != nil)
                    #expect(try await !writer.checkPIN("1357", of: made.link))
                    #expect(try await writer.checkPIN("2468", of: made.link))
                    #expect(try shared.sql("SELECT failed_pins FROM share_link")[0][0] == "1")
                    #expect(
                        try shared.sql("SELECT count(*) FROM share_link WHERE token_hash = '\(made.token)'")[0][0]
                            == "0")
                    #expect(throws: (any Error).self) {
                        try shared.sql(
                            "INSERT INTO share_link (id, album_id, token_hash, rights, created_at) VALUES ('../../etc', '\(albumID)', 'x', 'view', 0)"
                        )
                    }
                    try await writer.revokeShareLink(withID: made.link.id)
                    #expect(try await shared.library.shareLinks().isEmpty)
                }
            }

            @Test(
                "A version 5 library whose owner made member roles gets share links at the upgrade, with the writers' and readers' rights on them"
            )
            func aVersion5LibraryGetsShareLinksForItsMembers() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let roles = try await shared.library.createMemberRoles()
                    let database = String(shared.url.split(separator: "/").last!)
                    let saved = try await shared.library.album(titled: "Trip").save(
                        .file(try SharedTestLibrary.uniqueJPEG(in: directory, "version 5")))
                    // As version 5 left it: no share links.
                    try shared.sql(
                        "DROP TABLE share_link; UPDATE albumkit_setting SET value = '5' WHERE name = 'schema_version'")
                    let writerURL = try Self.member(database + "_wil", of: roles.writer, in: shared)
                    let readerURL = try Self.member(database + "_ria", of: roles.reader, in: shared)
                    _ = try SharedBackend.open(url: shared.url, environment: shared.environment)  // the owner upgrades
                    let writer = PhotoLibrary(
                        backend: try SharedBackend.open(url: writerURL, environment: shared.environment))
                    let reader = PhotoLibrary(
                        backend: try SharedBackend.open(url: readerURL, environment: shared.environment))
                    let made = try await writer.createShareLink(forAlbumWithID: try #require(saved.albumID))
                    #expect(try await reader.shareLinks().map(\.id) == [made.link.id])
                    #expect(
                        try shared.sql("SELECT value FROM albumkit_setting WHERE name = 'schema_version'")[0][0]
                            == String(SharedSchema.version))
                }
            }

            @Test func aVersion2LibraryKeepsWhoSavedEachPhotoWhenUpgraded() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    _ = try await shared.library.save(.file(try SharedTestLibrary.uniqueJPEG(in: directory, "old")))
                    // As version 2 left it: one text column.
                    try shared.sql(
                        """
                        ALTER TABLE asset DROP COLUMN saved_host, DROP COLUMN saved_user, DROP COLUMN saved_role,
                            DROP COLUMN favorite;
                        ALTER TABLE asset ADD COLUMN saved_by text;
                        UPDATE asset SET saved_by = 'bob@old-laptop as family';
                        UPDATE albumkit_setting SET value = '2' WHERE name = 'schema_version';
                        """)
                    let upgraded = PhotoLibrary(
                        backend: try SharedBackend.open(url: shared.url, environment: shared.environment))
                    let asset = try #require(try await upgraded.assets(orderedBy: .dateAdded, limit: 10).assets.first)
                    #expect(asset.savedBy == SaverIdentity(host: "old-laptop", user: "bob", databaseRole: "family"))
                    #expect(!asset.isFavorite)
                    #expect(
                        try shared.sql("SELECT value FROM albumkit_setting WHERE name = 'schema_version'")[0][0]
                            == String(SharedSchema.version))
                    #expect(
                        try shared.sql(
                            "SELECT count(*) FROM information_schema.columns WHERE table_name = 'asset' AND column_name = 'saved_by'"
                        )[0][0] == "0")
                }
            }
        }
    }
#endif
