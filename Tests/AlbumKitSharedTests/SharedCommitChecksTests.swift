#if os(Linux)
    import AlbumKitConformance
    import AlbumTestSupport
    import Foundation
    import Testing

    @testable import AlbumKitCore
    @testable import AlbumKitShared

    /// Transaction B sends its `COMMIT` with its changes: the server checks what decides between
    /// `COMMIT` and `ROLLBACK` in that round trip, and a failed check commits nothing.
    extension SharedServerTests {
        @Suite struct SharedCommitChecksTests {
            /// The checks themselves: a missing intent or a missing asset fails the transaction before
            /// its `COMMIT`, with the error the save reports; when all is there, the rows come back.
            @Test func theServerRefusesTheCommitWhenAnIntentOrAnAssetIsGone() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let saved = try await shared.library.save(
                        .file(try SharedTestLibrary.uniqueJPEG(in: directory, "kept")))
                    let sha = try #require(try shared.sql("SELECT sha256 FROM asset")[0][0])
                    let db = try PostgresConnection(url: shared.url)
                    let marker = "INSERT INTO albumkit_setting (name, value) VALUES ('probe', 'x')"
                    func refused(_ check: (sql: String, parameters: [String?])) throws -> AlbumError? {
                        do {
                            _ = try db.pipeline([("BEGIN", []), (marker, []), check, ("COMMIT", [])])
                            return nil
                        } catch {
                            _ = try db.execute("ROLLBACK")
                            return SharedBackend.refusedCommit(error)
                        }
                    }
                    let intent = UUID().uuidString.lowercased()
                    let collected = try refused(SharedBackend.checkedForgetting([intent]))
                    #expect(
                        collected?.message.contains("collected while it ran") == true,
                        "\(String(describing: collected))")
                    let gone = try refused(
                        (SharedBackend.checkedAssetIDs, ["{\(sha),\(String(repeating: "0", count: 64))}"]))
                    #expect(gone?.message.contains("An asset vanished") == true, "\(String(describing: gone))")
                    // Nothing of either transaction was committed.
                    #expect(try shared.sql("SELECT count(*) FROM albumkit_setting WHERE name = 'probe'")[0][0] == "0")
                    // All there: the asset's row, and the commit goes through.
                    let rows = try db.pipeline([
                        ("BEGIN", []), (SharedBackend.checkedAssetIDs, ["{\(sha)}"]), ("COMMIT", []),
                    ])
                    #expect(rows[1].map { $0[1] } == [saved.assetID])
                }
            }

            /// `gc` collects a live save's upload records (as it does when it takes the saver for
            /// dead) while transaction B waits: the server refuses that commit, and the save runs the
            /// protocol again from its intents: one album, one asset, no record left.
            @Test func aSaveWhoseUploadRecordsWereCollectedSavesAgain() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let photo = try SharedTestLibrary.uniqueJPEG(in: directory, "collected")
                    let marker = directory.appendingPathComponent("pause").path
                    var environment = shared.environment
                    environment["ALBUMKIT_PAUSE"] = "in-commit"
                    environment["ALBUMKIT_PAUSE_MARKER"] = marker
                    let saver = try Shell.startAlbum(
                        ["save", "--album", "Collected", photo.path], environment: environment,
                        machine: directory.appendingPathComponent("machine"))
                    _ = try #require(Shell.waitForFile(marker))
                    #expect(
                        try shared.sql(
                            "WITH gone AS (DELETE FROM upload_intent RETURNING 1) SELECT count(*) FROM gone")[0][0]
                            == "1")
                    try FileManager.default.removeItem(atPath: marker)
                    saver.waitUntilExit()
                    #expect(saver.terminationStatus == 0)
                    let albums = try await shared.library.albums()
                    #expect(albums.map(\.title) == ["Collected"] && albums.first?.count == 1)
                    #expect(try shared.sql("SELECT count(*) FROM asset")[0][0] == "1")
                    #expect(try shared.sql("SELECT count(*) FROM upload_intent")[0][0] == "0")
                    #expect(try await shared.library.verify().isHealthy)
                }
            }
        }
    }
#endif
