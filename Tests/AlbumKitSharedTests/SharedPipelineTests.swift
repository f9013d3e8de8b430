#if os(Linux)
    import Foundation
    import Testing

    @testable import AlbumKitCore
    @testable import AlbumKitShared

    extension SharedServerTests {
        /// The pieces that make a save fast over a slow link: statements sent together (libpq's
        /// pipeline mode), uploads started as files are staged, parts of a large file sent at once.
        @Suite struct SharedPipelineTests {
            @Test func statementsSentTogetherAnswerInOrderAndAFailureStopsTheRest() throws {
                let shared = try SharedTestLibrary()
                #expect(PostgresConnection.hasPipeline)  // libpq 15 here
                let rows = try shared.backend.withDatabase("test") { db in
                    try db.pipeline([
                        ("SELECT $1::int + 1", ["41"]), ("SELECT 'b'", []), ("SELECT generate_series(1, 3)", []),
                    ])
                }
                #expect(rows == [[["42"]], [["b"]], [["1"], ["2"], ["3"]]])
                // In a transaction: the failure is thrown, the statement after it never runs, the
                // transaction rolls back, and the connection goes on as before.
                let failure = #expect(throws: AlbumError.self) {
                    try shared.backend.withDatabase("test") { db in
                        _ = try db.pipeline([
                            ("BEGIN", []),
                            ("INSERT INTO albumkit_setting (name, value) VALUES ('pipeline-test', '1')", []),
                            ("SELECT 1 / 0", []),
                            ("INSERT INTO albumkit_setting (name, value) VALUES ('pipeline-test-2', '1')", []),
                        ])
                    }
                }
                #expect((failure?.underlying as? PostgresError)?.sqlState == "22012")
                let after = try shared.backend.withDatabase("test") { db in
                    try db.execute("ROLLBACK")
                    return try db.execute("SELECT count(*) FROM albumkit_setting WHERE name LIKE 'pipeline-test%'")
                }
                #expect(after == [["0"]])
            }

            /// A file staged and then dropped (the save cancelled, its album refused): its upload ends
            /// before the file is closed, its intent is forgotten, and `gc` can take the object.
            @Test func aStagedFileDiscardedLeavesNoIntent() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let photo = try SharedTestLibrary.uniqueJPEG(in: directory, "dropped")
                    let staged = try await shared.backend.stage(.file(photo))
                    await shared.backend.discard(staged)
                    #expect(try shared.sql("SELECT count(*) FROM upload_intent")[0][0] == "0")
                    #expect(try shared.sql("SELECT count(*) FROM asset")[0][0] == "0")
                    #expect(try await shared.backend.collectGarbage().removedObjects == 1)
                    #expect(try shared.objects().isEmpty)
                }
            }

            /// 300 files in batches of 64: every batch's uploads run while the previous one commits;
            /// all are saved once, in order, with no intent left.
            @Test func batchesOverlapAndEverythingIsSavedOnce() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let photos = try (0..<150).map { try SharedTestLibrary.uniqueJPEG(in: directory, "p\($0)") }
                    // Each file twice: identical bytes within and across batches.
                    let results = try await shared.library.album(titled: "Many").save(
                        (photos + photos).map { .file($0) }
                    ).map { try $0.get() }
                    #expect(results.count == 300)
                    #expect(results.prefix(150).allSatisfy { !$0.isExisting })
                    #expect(results.suffix(150).allSatisfy { $0.isExisting })
                    #expect(zip(results.prefix(150), results.suffix(150)).allSatisfy { $0.assetID == $1.assetID })
                    let inAlbum = try await shared.library.assets(inAlbumTitled: "Many")
                    #expect(inAlbum.map(\.id) == results.prefix(150).map(\.assetID))
                    #expect(try shared.sql("SELECT count(*) FROM upload_intent")[0][0] == "0")
                    #expect(try shared.objects().count == 150)
                    #expect(try await shared.library.verify().isHealthy)
                }
            }

            @Test func largeFilesAreSplitIntoWholeWavesOfParts() throws {
                let shared = try SharedTestLibrary()
                let store = try shared.backend.store
                let video = store.parts(of: 189_000_000)
                #expect(video.count == 16)  // two waves of 8
                #expect(video.dropLast().allSatisfy { $0.length == 12 << 20 })
                #expect(video.map(\.length).reduce(0, +) == 189_000_000)
                #expect(zip(video, video.dropFirst()).allSatisfy { $0.offset + $0.length == $1.offset })
                // Never below the smallest part S3 takes, never above 10 000 parts.
                #expect(store.parts(of: 65 << 20).allSatisfy { $0.length >= 8 << 20 || $0.offset == 64 << 20 })
                #expect(store.parts(of: 100 << 30).count <= 10_000)
            }
        }
    }
#endif
