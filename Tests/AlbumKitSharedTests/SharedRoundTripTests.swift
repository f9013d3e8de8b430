#if os(Linux)
    import AlbumTestSupport
    import Foundation
    import Testing

    @testable import AlbumKitCore
    @testable import AlbumKitShared

    /// What one photo's `album save` asks of PostgreSQL, counted by a relay in front of the server:
    /// at a 20 ms round trip every wait for the server is 20 ms of the save.
    extension SharedServerTests {
        @Suite struct SharedRoundTripTests {
            /// One photo saved by a new process into an album that exists: 6 round trips the server
            /// answers, 4 of them connecting (TLS request, start-up, two SCRAM messages), then
            /// transaction A (the upload record) with the settings and the album's look-up with
            /// its photos of the same name, and transaction B with its `COMMIT`. Into a new album,
            /// one more: the titles listed after its creation, to note a similar one.
            @Test func onePhotoWaitsForTheServerSixTimes() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let port = try #require(URLComponents(string: shared.url)?.port)
                    let relay = try LatencyProxy(target: port, oneWay: 0)
                    var environment = shared.environment
                    environment["ALBUMKIT_LIBRARY"] = shared.url.replacingOccurrences(
                        of: ":\(port)/", with: ":\(relay.port)/")
                    for (label, most) in [("new album", 7), ("same album", 6)] {
                        let photo = try SharedTestLibrary.uniqueJPEG(in: directory, label)
                        _ = relay.takeCounts()
                        let run = Shell.run(
                            Shell.album, ["save", "--album", "Trips", photo.path], environment: environment)
                        let counts = relay.takeCounts()
                        #expect(run.status == 0, "\(run.stderr)")
                        #expect(counts.connections == 1, "\(label)")
                        #expect(counts.waits <= most, "\(label): \(counts.waits) round trips waited for")
                    }
                    let albums = try await shared.library.albums()
                    #expect(albums.map(\.title) == ["Trips"] && albums.first?.count == 2)
                    #expect(try shared.sql("SELECT count(*) FROM upload_intent")[0][0] == "0")
                    #expect(try await shared.library.verify().isHealthy)
                }
            }

            /// The settings come with transaction A, which the server fails before it writes when
            /// they forbid the save: a library of a format this AlbumKit does not know, a role that
            /// may only read. The process fails with the reason and nothing is written: no upload
            /// record, no object, no asset, no album.
            @Test func aSaveTheSettingsForbidFailsWithNothingWritten() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    _ = try await shared.library.album(titled: "Trips").save(
                        .file(try SharedTestLibrary.uniqueJPEG(in: directory, "first")))
                    let objects = try shared.objects()
                    func expectNothingWritten(_ label: String) throws {
                        #expect(try shared.objects() == objects, "\(label)")
                        #expect(try shared.sql("SELECT count(*) FROM asset")[0][0] == "1", "\(label)")
                        #expect(try shared.sql("SELECT count(*) FROM album_asset")[0][0] == "1", "\(label)")
                        #expect(try shared.sql("SELECT count(*) FROM album")[0][0] == "1", "\(label)")
                        #expect(try shared.sql("SELECT count(*) FROM upload_intent")[0][0] == "0", "\(label)")
                    }

                    // A role that may only read, into the album and into a new one.
                    let printed = Shell.run(
                        Shell.album, ["--library", shared.url, "init", "--print-roles"], environment: shared.environment
                    )
                    #expect(printed.status == 0, "\(printed)")
                    try shared.sql(printed.stdout)
                    let database = String(shared.url.split(separator: "/").last!)
                    var reader = shared.environment
                    reader["ALBUMKIT_LIBRARY"] = try SharedMembersTests.member(
                        database + "_ben", of: database + "_reader", in: shared)
                    for album in ["Trips", "Elsewhere"] {
                        let photo = try SharedTestLibrary.uniqueJPEG(in: directory, "read-\(album)")
                        let run = Shell.run(Shell.album, ["save", "--album", album, photo.path], environment: reader)
                        #expect(run.status != 0, "\(run)")
                        #expect(run.stderr.contains("read-only access"), "\(run)")
                        try expectNothingWritten("reader, \(album)")
                    }

                    // A library of a newer format.
                    try shared.sql(
                        "UPDATE albumkit_setting SET value = $1 WHERE name = 'schema_version'",
                        [String(SharedSchema.version + 1)])
                    let photo = try SharedTestLibrary.uniqueJPEG(in: directory, "newer")
                    let run = Shell.run(
                        Shell.album, ["save", "--album", "Trips", photo.path], environment: shared.environment)
                    #expect(run.status != 0, "\(run)")
                    #expect(run.stderr.contains("newer AlbumKit"), "\(run)")
                    try expectNothingWritten("newer format")
                }
            }

            /// Transaction B makes its album changes from the album's facts read before it, and the
            /// server checks them under the title's lock: an album of the title made meanwhile by
            /// another machine fails that check, and the commit runs again from the facts read under
            /// the lock, saving into the album the rule names (the oldest), never a second new one.
            @Test func anAlbumMadeBetweenTheLookUpAndTheCommitIsTheOneSavedInto() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let photo = try SharedTestLibrary.uniqueJPEG(in: directory, "raced")
                    // The look-up finds no album "Raced"; another machine then makes one.
                    #expect(try await shared.backend.findAlbum(titled: AlbumTitle("Raced")) == nil)
                    let other = PhotoLibrary(
                        backend: try SharedBackend.open(url: shared.url, environment: shared.environment))
                    let made = try await other.album(titled: "Raced").save(
                        .file(try SharedTestLibrary.uniqueJPEG(in: directory, "other")))
                    let saved = try await shared.library.album(titled: "Raced").save(
                        .file(photo))
                    #expect(made.albumOutcome == .created && saved.albumOutcome == .found)
                    #expect(saved.albumID == made.albumID)
                    let albums = try await shared.library.albums()
                    #expect(albums.map(\.title) == ["Raced"] && albums.first?.count == 2)
                    #expect(try shared.sql("SELECT count(*) FROM upload_intent")[0][0] == "0")
                }
            }
        }
    }
#endif
