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
            /// One photo saved by a new process into an album that exists: 8 round trips the server
            /// answers, 4 of them connecting (TLS request, start-up, two SCRAM messages), then the
            /// settings, the album's look-up with its photos of the same name, the upload record,
            /// and transaction B with its `COMMIT`. Into a new album, one more: the titles listed
            /// after its creation, to note a similar one.
            @Test func onePhotoWaitsForTheServerEightTimes() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let port = try #require(URLComponents(string: shared.url)?.port)
                    let relay = try LatencyProxy(target: port, oneWay: 0)
                    var environment = shared.environment
                    environment["ALBUMKIT_LIBRARY"] = shared.url.replacingOccurrences(
                        of: ":\(port)/", with: ":\(relay.port)/")
                    for (label, most) in [("new album", 9), ("same album", 8)] {
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
