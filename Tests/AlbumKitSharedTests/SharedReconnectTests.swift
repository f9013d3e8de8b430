#if os(Linux)
    import Foundation
    import Testing

    @testable import AlbumKitCore
    @testable import AlbumKitShared

    extension SharedServerTests {
        @Suite struct SharedReconnectTests {
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
