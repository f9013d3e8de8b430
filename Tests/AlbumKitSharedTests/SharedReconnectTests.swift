#if os(Linux)
    import Foundation
    import Testing

    @testable import AlbumKitCore
    @testable import AlbumKitShared

    extension SharedServerTests {
        @Suite struct SharedReconnectTests {
            /// Stops the test servers' PostgreSQL and starts it again.
            static func restartDatabase() {
                let stop = Shell.run("/bin/bash", [SharedServers.script, "stop-db"])
                #expect(stop.status == 0, "\(stop.stderr)")
                let start = Shell.run("/bin/bash", [SharedServers.script, "start-db"])
                #expect(start.status == 0, "\(start.stderr)")
            }

            /// Connections left idle while the server restarts: the next statement on each, alone or
            /// in a pipeline, fails as a lost connection (the server's "terminating connection"
            /// answer is read before libpq sees the socket closed), never as an ordinary failure a
            /// save would not run again; and the library's next save reconnects and saves.
            @Test func aConnectionIdleThroughARestartIsKnownLostAndTheNextSaveReconnects() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let first = try (0..<3).map { try SharedTestLibrary.uniqueJPEG(in: directory, "before-\($0)") }
                    #expect(
                        await shared.library.album(titled: "Idle").save(first.map { .file($0) }).allSatisfy {
                            $0.value != nil
                        })
                    let single = try PostgresConnection(url: shared.url)
                    let pipelined = try PostgresConnection(url: shared.url)
                    #expect(try single.value("SELECT 1") == "1" && pipelined.value("SELECT 1") == "1")
                    Self.restartDatabase()
                    for (connection, isPipelined) in [(single, false), (pipelined, true)] {
                        do {
                            if isPipelined {
                                _ = try connection.pipeline([("SELECT 1", []), ("SELECT $1::int", ["2"])])
                            } else {
                                _ = try connection.execute("SELECT 1")
                            }
                            Issue.record("a statement ran on a connection the server closed")
                        } catch let error as PostgresError {
                            #expect(error.connectionLost, "pipelined \(isPipelined): \(error)")
                            #expect(connection.isBroken, "pipelined \(isPipelined)")
                        }
                    }
                    // The library's own connection sat idle through the restart too.
                    let after = try (0..<3).map { try SharedTestLibrary.uniqueJPEG(in: directory, "after-\($0)") }
                    let results = await shared.library.album(titled: "Idle").save(after.map { .file($0) })
                    #expect(results.allSatisfy { $0.value != nil }, "\(results.compactMap(\.error))")
                    #expect(try await shared.library.assets(inAlbumTitled: "Idle").count == 6)
                    #expect(try shared.sql("SELECT count(*) FROM upload_intent")[0][0] == "0")
                }
            }

            /// The real PostgreSQL server stopped in the middle of a 200-file save (the first batch's
            /// rows written, not committed) and started again 2 s later: the saver waits for it,
            /// commits that batch and every later one, and exits 0; nothing is lost or doubled. It takes
            /// 20–80 s on 2 loaded cores, most of it PostgreSQL's own shutdown checkpoint and restart,
            /// which a real restart costs too.
            @Test func aSaveGoesOnAfterTheDatabaseServerRestartsMidBatch() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let files = try (0..<200).map { try SharedTestLibrary.uniqueJPEG(in: directory, "r\($0)") }
                    let marker = directory.appendingPathComponent("paused").path
                    var environment = shared.environment
                    environment["ALBUMKIT_PAUSE"] = "in-commit"
                    environment["ALBUMKIT_PAUSE_MARKER"] = marker
                    let output = directory.appendingPathComponent("out.jsonl")
                    let saver = Process()
                    saver.executableURL = URL(fileURLWithPath: Shell.album)
                    saver.arguments = ["--json", "save", "--album", "Restart"] + files.map(\.path)
                    saver.environment = environment
                    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
                    saver.standardOutput = try FileHandle(forWritingTo: output)
                    saver.standardError = FileHandle(forWritingAtPath: "/dev/null")
                    try saver.run()
                    #expect(Shell.waitForFile(marker) != nil, "the saver never reached its first commit")
                    let stop = Shell.run("/bin/bash", [SharedServers.script, "stop-db"])
                    #expect(stop.status == 0, "\(stop.stderr)")
                    try FileManager.default.removeItem(atPath: marker)  // the saver goes on, into a dead server
                    sleep(2)
                    let start = Shell.run("/bin/bash", [SharedServers.script, "start-db"])
                    #expect(start.status == 0, "\(start.stderr)")
                    saver.waitUntilExit()
                    #expect(saver.terminationStatus == 0)
                    let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
                    let saved = lines.filter { $0.contains("\"asset\"") }
                    #expect(saved.count == 200, "\(lines.filter { !$0.contains("\"asset\"") }.prefix(3))")
                    #expect(try await shared.library.assets(inAlbumTitled: "Restart").count == 200)
                    #expect(try shared.sql("SELECT count(*) FROM asset")[0][0] == "200")
                    #expect(try shared.sql("SELECT count(*) FROM upload_intent")[0][0] == "0")
                    #expect(try await shared.library.verify().isHealthy)
                }
            }
        }
    }
#endif
