#if os(Linux)
    import AlbumTestSupport
    import Foundation
    import Testing

    @testable import AlbumKitCore
    @testable import AlbumKitShared

    extension SharedServerTests {
        @Suite struct SharedMidTransferOutageTests {
            /// The object store killed (`SIGKILL`) while a 72 MiB original is on the wire, then restarted:
            /// the save either completes with the object byte-identical, or fails clearly with no catalog
            /// row left without its object; `gc` then leaves nothing orphaned. About 35 s on 2 loaded
            /// cores: 72 MiB go up (twice when the save is retried), SeaweedFS starts again, and
            /// `verify` reads the original back.
            @Test func objectStoreKilledWhileBytesAreFlowing() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    // A valid JPEG followed by 72 MiB of unique trailer bytes: large enough to upload in parts.
                    let big = try SharedTestLibrary.uniqueJPEG(in: directory, "big")
                    let handle = try FileHandle(forWritingTo: big)
                    try handle.seekToEnd()
                    for _ in 0..<72 { try handle.write(contentsOf: Data(RandomBytes.make(1 << 20))) }
                    try handle.close()
                    var environment = shared.environment
                    environment["ALBUMKIT_S3_RETRY_SECONDS"] = "60"
                    let saver = try Shell.startAlbum(
                        ["save", "--album", "Big", big.path], environment: environment,
                        machine: directory.appendingPathComponent("machine"))
                    // The transfer has started: the store has read 8 MiB more than before (its own
                    // counter, so the saver's local staging copy does not count).
                    let store = try storePID()
                    let before = read(by: store)
                    let started = waitUntil(seconds: 120) { read(by: store) - before > 8 << 20 }
                    #expect(started, "the upload never got going")
                    #expect(saver.isRunning, "the upload finished before the store could be killed")
                    #expect(Shell.run("/bin/bash", [SharedServers.script, "stop-store"]).status == 0)
                    sleep(2)
                    let restart = Shell.run("/bin/bash", [SharedServers.script, "start-store"])
                    #expect(restart.status == 0, "\(restart.stderr)")
                    saver.waitUntilExit()
                    print("mid-transfer outage: saver exit status \(saver.terminationStatus)")
                    let assets = try await shared.library.assets(orderedBy: .dateAdded, limit: 10).assets
                    if saver.terminationStatus == 0 {
                        #expect(assets.count == 1)
                        #expect(assets.first?.byteSize == Int64(try Data(contentsOf: big).count))
                    } else {
                        // Failed clearly: no asset row at all, hence none without its object.
                        #expect(assets.isEmpty)
                    }
                    let gc = Shell.run(Shell.album, ["gc"], environment: shared.environment)
                    #expect(gc.status == 0, "\(gc.stderr)")
                    // verify downloads and hashes every original, and names any stray object.
                    let report = try await shared.library.verify()
                    #expect(report.isHealthy, "\(report.problems)")
                    #expect(try shared.objects().filter { $0.contains("/originals/") }.count == assets.count)
                }
            }
        }
    }

    /// The running SeaweedFS's process id, from the script's state folder.
    private func storePID() throws -> Int32 {
        let state = try #require(try SharedServers.environment()["ALBUMKIT_SHARED_STATE"])
        let text = try String(contentsOfFile: state + "/weed.pid", encoding: .utf8)
        return try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// Bytes `pid` has read so far (files and sockets), from `/proc/PID/io`.
    private func read(by pid: Int32) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8) else { return 0 }
        let line = text.split(separator: "\n").first { $0.hasPrefix("rchar:") }
        return Int(line?.split(separator: " ").last ?? "") ?? 0
    }

    private func waitUntil(seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(5_000)
        }
        return false
    }
#endif
