#if os(Linux)
    import Foundation
    import Testing

    @testable import AlbumKitCore
    @testable import AlbumKitShared

    /// The shared library against a real PostgreSQL and a real S3 server: the same rules the catalog
    /// and folder libraries follow.
    extension SharedServerTests {
        @Suite struct SharedLibraryTests {
            @Test func saveStoresTheOriginalAndTheMembershipInOneStep() async throws {
                let shared = try SharedTestLibrary()
                let album = shared.library.album(titled: "Touch Code Magazine")
                let first = try await album.save(.file(SharedServers.examples.appendingPathComponent("harbour.jpg")))
                let second = try await album.save(.file(SharedServers.examples.appendingPathComponent("garden.png")))
                #expect(first.albumOutcome == .created)
                #expect(second.albumOutcome == .found)
                #expect(first.albumID == second.albumID)
                let assets = try await shared.library.assets(inAlbumTitled: "Touch Code Magazine")
                #expect(assets.map(\.originalFilename) == ["harbour.jpg", "garden.png"])
                // The object is the original, byte for byte, under its SHA-256.
                let original = try Data(contentsOf: SharedServers.examples.appendingPathComponent("harbour.jpg"))
                let sha = try #require(assets.first?.sha256)
                #expect(try shared.objects().contains("\(shared.prefix)originals/\(sha.prefix(2))/\(sha)"))
                #expect(
                    try shared.backend.store.size(of: "\(shared.prefix)originals/\(sha.prefix(2))/\(sha)")
                        == UInt64(original.count))
                let report = try await shared.library.verify()
                #expect(report.isHealthy && report.checkedAssets == 2)
            }

            @Test func identicalBytesAreStoredOnceAndReportedAsExisting() async throws {
                let shared = try SharedTestLibrary()
                let url = SharedServers.examples.appendingPathComponent("harbour.jpg")
                let first = try await shared.library.album(titled: "A").save(.file(url))
                let second = try await shared.library.album(titled: "B").save(.file(url))
                #expect(!first.isExisting)
                #expect(second.isExisting && second.assetID == first.assetID && !second.isRestored)
                #expect(try shared.objects().count == 1)
                #expect(try await shared.library.assets(inAlbumTitled: "B").map(\.id) == [first.assetID])
            }

            /// Saving bytes the library holds put nothing in the store, even when the object was
            /// gone from it: saving the photo again could never restore it.
            @Test func savingAgainRestoresAnObjectGoneFromTheStore() async throws {
                let shared = try SharedTestLibrary()
                let url = SharedServers.examples.appendingPathComponent("harbour.jpg")
                let first = try await shared.library.album(titled: "A").save(.file(url))
                let sha = try #require(try await shared.library.assets(inAlbumTitled: "A").first?.sha256)
                let key = "\(shared.prefix)originals/\(sha.prefix(2))/\(sha)"
                try shared.backend.store.delete(key: key)
                #expect(try await !shared.library.verify().isHealthy)
                let again = try await shared.library.album(titled: "B").save(.file(url))
                #expect(again.isExisting && again.isRestored && again.assetID == first.assetID)
                let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber
                #expect(try shared.backend.store.size(of: key) == size.map { UInt64($0.int64Value) })
                #expect(try await shared.library.verify().isHealthy)
            }

            @Test func aBatchKeepsOrderNamesAndDuplicatesWithinIt() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let odd = directory.appendingPathComponent(#"a "quoted", {braced} \ name.jpg"#)
                    try FileManager.default.copyItem(
                        at: SharedServers.examples.appendingPathComponent("harbour.jpg"), to: odd)
                    let files = [odd, SharedServers.examples.appendingPathComponent("garden.png"), odd]
                    let results = await shared.library.album(titled: "Batch").save(files.map { .file($0) })
                    let saved = results.compactMap(\.value)
                    #expect(saved.count == 3)
                    #expect(saved.map(\.isExisting) == [false, false, true])
                    #expect(saved[2].assetID == saved[0].assetID)
                    let assets = try await shared.library.assets(inAlbumTitled: "Batch")
                    #expect(assets.map(\.originalFilename) == [odd.lastPathComponent, "garden.png"])
                }
            }

            @Test func assetsAreListedAddedRemovedAndDeleted() async throws {
                let shared = try SharedTestLibrary()
                let backend = shared.backend
                let a = try await shared.library.album(titled: "A").save(
                    .file(SharedServers.examples.appendingPathComponent("harbour.jpg")))
                let b = try await shared.library.album(titled: "A").save(
                    .file(SharedServers.examples.appendingPathComponent("garden.png")))
                // Paged through the whole library, one at a time, nothing repeated or skipped.
                let first = try await backend.assets(in: .dateAdded, after: nil, limit: 1)
                let cursor = try AssetCursor(token: try #require(first.nextCursor), order: .dateAdded)
                let second = try await backend.assets(in: .dateAdded, after: cursor, limit: 1)
                #expect(Set(first.assets.map(\.id) + second.assets.map(\.id)) == [a.assetID, b.assetID])
                // Added to another album, removed from the first, then deleted from the library.
                let other = try await backend.createAlbum(titled: try AlbumTitle("B")).id
                #expect(try await backend.addAssets([a.assetID], toAlbumWithID: other) == [a.assetID])
                try await backend.removeAssets([a.assetID], fromAlbumWithID: try #require(a.albumID))
                #expect(try await shared.library.assets(inAlbumTitled: "A").map(\.id) == [b.assetID])
                #expect(try await shared.library.assets(inAlbumTitled: "B").map(\.id) == [a.assetID])
                #expect(
                    await errorCode { try await backend.addAssets(["nope"], toAlbumWithID: other) } == .assetNotFound)
                #expect(try await backend.deleteAssets([a.assetID]).map(\.id) == [a.assetID])
                #expect(try await shared.library.assets(inAlbumTitled: "B").isEmpty)
                // In recently deleted, its original stays through gc; removed for good, it goes.
                #expect(try await backend.collectGarbage().removedObjects == 0)
                #expect(try shared.objects().count == 2)
                #expect(try await shared.library.removeDeletedPermanently(withIDs: [a.assetID]).removedObjects == 1)
                #expect(try shared.objects().count == 1)
                #expect(try await shared.library.verify().isHealthy)
            }

            @Test func deletedAlbumIsRecreatedAndRenamedAlbumKeepsItsIdentity() async throws {
                let shared = try SharedTestLibrary()
                let photo = SharedServers.examples.appendingPathComponent("harbour.jpg")
                let first = try await shared.library.album(titled: "Trips").save(.file(photo))
                try await shared.library.renameAlbum(titled: "Trips", to: "Trips 2026")
                #expect(try await shared.library.albums().map(\.title) == ["Trips 2026"])
                let found = try await shared.library.album(titled: "Trips 2026").save(.file(photo))
                #expect(found.albumID == first.albumID && found.albumOutcome == .found)
                try await shared.library.deleteAlbum(titled: "Trips 2026")
                let recreated = try await shared.library.album(titled: "Trips 2026").save(.file(photo))
                #expect(recreated.albumOutcome == .recreated)
                #expect(recreated.albumID != first.albumID)
            }

            @Test func duplicateTitlesResolveToTheOldestEveryTime() async throws {
                let shared = try SharedTestLibrary()
                for (id, created) in [("b-newer", "2000"), ("a-older", "1000")] {
                    try shared.sql(
                        "INSERT INTO album (id, title, title_key, created_at) VALUES ($1, 'Trips', 'Trips', $2)",
                        [id, created])
                }
                let saved = try await shared.library.album(titled: "Trips").save(
                    .file(SharedServers.examples.appendingPathComponent("garden.png")))
                #expect(saved.albumID == "a-older")
            }

            @Test func badInputFailsAloneAndTitlesAreValidated() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let notes = directory.appendingPathComponent("notes.txt")
                    try Data("hello".utf8).write(to: notes)
                    let results = await shared.library.album(titled: "Mixed").save([
                        .file(notes), .file(SharedServers.examples.appendingPathComponent("clip.mp4")),
                        .file(directory.appendingPathComponent("missing.jpg")),
                    ])
                    #expect(results[0].error?.code == .notMedia)
                    #expect(results[1].value != nil)
                    #expect(results[2].error?.code == .fileNotFound)
                    #expect(
                        await errorCode {
                            try await shared.library.album(titled: "  ").save(
                                .file(SharedServers.examples.appendingPathComponent("clip.mp4")))
                        } == .invalidAlbumTitle)
                    #expect(try shared.objects().count == 1)
                }
            }

            @Test func hundredConcurrentSavesCreateOneAlbum() async throws {
                let shared = try SharedTestLibrary()
                let photo = SharedServers.examples.appendingPathComponent("harbour.jpg")
                // Separate handles, as separate apps would have, each with its own connection.
                let libraries = try (0..<4).map { _ in
                    PhotoLibrary(backend: try SharedBackend.open(url: shared.url, environment: shared.environment))
                }
                let ids = await withTaskGroup(of: String?.self) { group in
                    for index in 0..<100 {
                        group.addTask {
                            try? await libraries[index % 4].album(titled: "Race").save(.file(photo)).albumID
                        }
                    }
                    return await group.reduce(into: Set<String?>()) { $0.insert($1) }
                }
                #expect(ids.count == 1 && ids.first! != nil)
                #expect(try await shared.library.albums().count == 1)
            }

            @Test func errorsMapToTheLibraryCodes() async throws {
                let exports = try SharedServers.environment()
                let base = exports["ALBUMKIT_LIBRARY"]!
                var environment = ProcessInfo.processInfo.environment.merging(exports) { $1 }
                // A server that does not answer.
                #expect(
                    errorCode {
                        try SharedBackend.open(
                            url: "postgres://albumkit@127.0.0.1:1/albumkit", environment: environment)
                    } == .libraryNotFound)
                // A database that is not an AlbumKit library.
                #expect(
                    errorCode {
                        try SharedBackend.open(
                            url: String(base.dropLast("albumkit".count)) + "postgres", environment: environment)
                    } == .libraryNotFound)
                // A password on the command line is refused before anything is sent.
                #expect(
                    errorCode {
                        try SharedBackend.open(
                            url: "postgres://albumkit:secret@127.0.0.1:1/albumkit", environment: environment)
                    } == .accessDenied)
                // Wrong store keys: the store refuses the signature.
                let shared = try SharedTestLibrary()
                environment["AWS_SECRET_ACCESS_KEY"] = "wrong"
                let wrongKeys = PhotoLibrary(backend: try SharedBackend.open(url: shared.url, environment: environment))
                #expect(
                    await errorCode {
                        try await wrongKeys.save(.file(SharedServers.examples.appendingPathComponent("harbour.jpg")))
                    } == .accessDenied)
                #expect(try shared.sql("SELECT count(*) FROM asset")[0][0] == "0")
                #expect(try shared.sql("SELECT count(*) FROM upload_intent")[0][0] == "0")
                // A wrong database password.
                let saved = getenv("PGPASSWORD").map { String(cString: $0) }
                setenv("PGPASSWORD", "wrong", 1)
                defer { if let saved { setenv("PGPASSWORD", saved, 1) } }
                #expect(
                    errorCode {
                        try SharedBackend.open(url: shared.url, environment: environment)
                    } == .accessDenied)
            }

            @Test func aTitleHeldBeyondTheLockTimeoutIsBusyAndSavesNothing() async throws {
                let shared = try SharedTestLibrary()
                // Another machine holds the title's lock (a session-level lock, as a long transaction would).
                let other = try PostgresConnection(url: shared.url)
                try other.execute(
                    "SELECT pg_advisory_lock(\(SharedSchema.titleLock), hashtext($1))", ["Busy"])
                var environment = shared.environment
                environment["ALBUMKIT_LOCK_TIMEOUT_MS"] = "300"
                let impatient = PhotoLibrary(backend: try SharedBackend.open(url: shared.url, environment: environment))
                let code = await errorCode {
                    try await impatient.album(titled: "Busy").save(
                        .file(SharedServers.examples.appendingPathComponent("garden.png")))
                }
                #expect(code == .libraryBusy)
                #expect(try shared.sql("SELECT count(*) FROM asset")[0][0] == "0")
                #expect(try shared.sql("SELECT count(*) FROM upload_intent")[0][0] == "0")
                // Once the lock is released the same save goes through, and gc has nothing left to reclaim.
                try other.execute("SELECT pg_advisory_unlock_all()")
                _ = try await impatient.album(titled: "Busy").save(
                    .file(SharedServers.examples.appendingPathComponent("garden.png")))
                #expect(try await shared.backend.collectGarbage().removedObjects == 0)
                #expect(try await shared.library.verify().isHealthy)
            }

            @Test func serverFailuresMapToTheSameCodesAsTheOtherLibraries() {
                let cases: [(PostgresError, AlbumError.Code)] = [
                    (
                        PostgresError(sqlState: "53100", message: "could not extend file", connectionLost: false),
                        .notEnoughSpace
                    ),
                    (PostgresError(sqlState: "55P03", message: "lock timeout", connectionLost: false), .libraryBusy),
                    (
                        PostgresError(
                            sqlState: "28P01", message: "password authentication failed", connectionLost: true),
                        .accessDenied
                    ),
                    (
                        PostgresError(sqlState: "57P01", message: "terminating connection", connectionLost: true),
                        .libraryNotFound
                    ),
                    (
                        PostgresError(sqlState: "42P01", message: "relation does not exist", connectionLost: false),
                        .libraryNotFound
                    ),
                    (
                        PostgresError(
                            sqlState: "42501", message: "permission denied for table album", connectionLost: false),
                        .libraryUnwritable
                    ),
                ]
                for (error, code) in cases { #expect(error.albumError("save", library: "L").code == code) }
                let store: [(ObjectStoreError, AlbumError.Code)] = [
                    (
                        ObjectStoreError(status: 507, code: "InsufficientStorage", message: "", key: "k"),
                        .notEnoughSpace
                    ),
                    (
                        ObjectStoreError(status: 403, code: "SignatureDoesNotMatch", message: "", key: "k"),
                        .accessDenied
                    ),
                    (ObjectStoreError(status: 0, code: "Unreachable", message: "refused", key: "k"), .libraryNotFound),
                    (ObjectStoreError(status: 503, code: "SlowDown", message: "", key: "k"), .libraryBusy),
                    (ObjectStoreError(status: 400, code: "BadDigest", message: "", key: "k"), .fileUnreadable),
                ]
                for (error, code) in store { #expect(error.albumError("save", store: "S").code == code) }
            }

            @Test func initRecordsTheStoreOnceAndNoCredentials() throws {
                let shared = try SharedTestLibrary()
                let settings = try shared.sql("SELECT name, value FROM albumkit_setting ORDER BY name")
                #expect(
                    settings.map { $0[0]! } == [
                        "addressing", "bucket", "endpoint", "prefix", "region", "schema_version",
                    ])
                let exports = try SharedServers.environment()
                let values = settings.compactMap { $0[1] }.joined(separator: " ")
                #expect(!values.contains(exports["AWS_SECRET_ACCESS_KEY"]!) && !values.contains(exports["PGPASSWORD"]!))
                // Again with the same store: nothing changes; with another: refused.
                let same = ObjectStoreLocation(
                    endpoint: exports["ALBUMKIT_S3_ENDPOINT"]!, bucket: exports["ALBUMKIT_S3_BUCKET"]!,
                    prefix: shared.prefix)
                _ = try SharedBackend.initialize(url: shared.url, location: same, environment: shared.environment)
                var other = same
                other.prefix = "elsewhere/"
                #expect(
                    errorCode {
                        try SharedBackend.initialize(url: shared.url, location: other, environment: shared.environment)
                    } == .libraryCorrupt)
            }
        }
    }
#endif
