#if os(Linux)
    import Foundation
    import Testing

    @testable import AlbumKitCore
    @testable import AlbumKitShared

    /// Real `album` processes as separate machines (own staging folders and temporary directories, own
    /// database sessions), killed and cut off at each step of the save protocol.
    extension SharedServerTests {
        @Suite struct SharedMachinesTests {
            @Test func eightMachinesSavingIntoOneNewAlbumMakeOneAlbum() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    var machines: [Process] = []
                    var files: [URL] = []
                    for machine in 0..<8 {
                        let mine = try (0..<4).map {
                            try SharedTestLibrary.uniqueJPEG(in: directory, "m\(machine)-\($0)")
                        }
                        files += mine
                        machines.append(
                            try Shell.startAlbum(
                                ["save", "--album", "Family Reunion"] + mine.map(\.path),
                                environment: shared.environment,
                                machine: directory.appendingPathComponent("machine-\(machine)")))
                    }
                    for process in machines { process.waitUntilExit() }
                    #expect(machines.allSatisfy { $0.terminationStatus == 0 })
                    let albums = try await shared.library.albums()
                    #expect(albums.count == 1)
                    #expect(albums.first?.count == 32)
                    let names = Set(
                        try await shared.library.assets(inAlbumTitled: "Family Reunion").compactMap(\.originalFilename))
                    #expect(names == Set(files.map(\.lastPathComponent)))
                    let report = try await shared.library.verify()
                    #expect(report.isHealthy && report.checkedAssets == 32)
                }
            }

            /// kill -9 after the upload and before the commit: no row, the object is an orphan that `gc`
            /// reclaims once the saver's session is gone. After the commit: everything is there, nothing to collect.
            @Test(arguments: ["after-upload", "after-commit"])
            func saverKilledAroundTheCommit(step: String) async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let photo = try SharedTestLibrary.uniqueJPEG(in: directory, "killed")
                    let marker = directory.appendingPathComponent("pause").path
                    var environment = shared.environment
                    environment["ALBUMKIT_PAUSE"] = step
                    environment["ALBUMKIT_PAUSE_MARKER"] = marker
                    let saver = try Shell.startAlbum(
                        ["save", "--album", "Crash", photo.path], environment: environment,
                        machine: directory.appendingPathComponent("machine"))
                    #expect(Shell.waitForFile(marker) != nil)
                    kill(saver.processIdentifier, SIGKILL)
                    saver.waitUntilExit()
                    let committed = step == "after-commit"
                    #expect(try shared.sql("SELECT count(*) FROM asset")[0][0] == (committed ? "1" : "0"))
                    #expect(try shared.objects().count == 1)
                    // No row without its object, whichever step it died at.
                    let before = try await shared.library.verify()
                    #expect(before.problems.allSatisfy { $0.hasPrefix("stray object") })
                    #expect(before.isHealthy == committed)
                    // The killed session ends; then gc reclaims exactly the orphan.
                    try waitForSessionsToEnd(shared)
                    let collected = try await shared.backend.collectGarbage()
                    #expect(collected.removedObjects == (committed ? 0 : 1))
                    #expect(try shared.objects().count == (committed ? 1 : 0))
                    #expect(try await shared.library.verify().isHealthy)
                    #expect(try shared.sql("SELECT count(*) FROM upload_intent")[0][0] == "0")
                }
            }

            /// The database connection is terminated in the middle of transaction B: the transaction rolls
            /// back, the saver reconnects, commits once more and succeeds; exactly one album and one asset.
            @Test func connectionTerminatedMidTransaction() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let photo = try SharedTestLibrary.uniqueJPEG(in: directory, "cut")
                    let marker = directory.appendingPathComponent("pause").path
                    var environment = shared.environment
                    environment["ALBUMKIT_PAUSE"] = "in-commit"
                    environment["ALBUMKIT_PAUSE_MARKER"] = marker
                    let saver = try Shell.startAlbum(
                        ["save", "--album", "Cut", photo.path], environment: environment,
                        machine: directory.appendingPathComponent("machine"))
                    let pid = try #require(Shell.waitForFile(marker))
                    #expect(try shared.sql("SELECT pg_terminate_backend($1::int)", [pid])[0][0] == "t")
                    try FileManager.default.removeItem(atPath: marker)
                    saver.waitUntilExit()
                    #expect(saver.terminationStatus == 0)
                    let albums = try await shared.library.albums()
                    #expect(albums.map(\.title) == ["Cut"] && albums.first?.count == 1)
                    #expect(try await shared.library.verify().isHealthy)
                }
            }

            /// The object store is killed while a saver is about to upload, and restarted 2 s later: the
            /// upload is retried until the store answers again, then the save completes. It takes 10–25 s,
            /// most of it SeaweedFS starting again (as a real outage would), which the saver waits out.
            @Test func objectStoreKilledAndRestartedDuringTheUpload() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let photos = try (0..<3).map { try SharedTestLibrary.uniqueJPEG(in: directory, "outage-\($0)") }
                    let marker = directory.appendingPathComponent("pause").path
                    var environment = shared.environment
                    environment["ALBUMKIT_PAUSE"] = "before-upload"
                    environment["ALBUMKIT_PAUSE_MARKER"] = marker
                    environment["ALBUMKIT_S3_RETRY_SECONDS"] = "60"
                    let saver = try Shell.startAlbum(
                        ["save", "--album", "Outage"] + photos.map(\.path), environment: environment,
                        machine: directory.appendingPathComponent("machine"))
                    #expect(Shell.waitForFile(marker) != nil)
                    #expect(Shell.run("/bin/bash", [SharedServers.script, "stop-store"]).status == 0)
                    // The store is really gone: its port refuses connections.
                    let endpoint = try SharedServers.environment()["ALBUMKIT_S3_ENDPOINT"]!
                    #expect(Shell.run("/usr/bin/curl", ["-s", "-o", "/dev/null", endpoint]).status != 0)
                    try FileManager.default.removeItem(atPath: marker)
                    sleep(2)
                    let restart = Shell.run("/bin/bash", [SharedServers.script, "start-store"])
                    #expect(restart.status == 0, "\(restart.stderr)")
                    saver.waitUntilExit()
                    #expect(saver.terminationStatus == 0)
                    #expect(try await shared.library.albums().first?.count == 3)
                    #expect(try await shared.library.verify().isHealthy)
                }
            }

            /// `gc` racing saves of the very bytes it is collecting: every committed asset keeps its object.
            @Test func garbageCollectionNeverRacesASaveOfTheSameBytes() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    var rounds = 0
                    for round in 0..<6 {
                        // An orphan: uploaded by a saver killed before its commit.
                        let photo = try SharedTestLibrary.uniqueJPEG(in: directory, "race-\(round)")
                        let marker = directory.appendingPathComponent("pause-\(round)").path
                        var environment = shared.environment
                        environment["ALBUMKIT_PAUSE"] = "after-upload"
                        environment["ALBUMKIT_PAUSE_MARKER"] = marker
                        let killed = try Shell.startAlbum(
                            ["save", photo.path], environment: environment,
                            machine: directory.appendingPathComponent("killed-\(round)"))
                        #expect(Shell.waitForFile(marker) != nil)
                        kill(killed.processIdentifier, SIGKILL)
                        killed.waitUntilExit()
                        try waitForSessionsToEnd(shared)
                        // Now gc (collecting that orphan) and two saves of the same bytes, at once.
                        let collectors = try (0..<2).map {
                            try Shell.startAlbum(
                                ["gc"], environment: shared.environment,
                                machine: directory.appendingPathComponent("gc-\(round)-\($0)"))
                        }
                        let savers = try (0..<2).map {
                            try Shell.startAlbum(
                                ["save", "--album", "Race", photo.path], environment: shared.environment,
                                machine: directory.appendingPathComponent("saver-\(round)-\($0)"))
                        }
                        for process in collectors + savers { process.waitUntilExit() }
                        #expect((collectors + savers).allSatisfy { $0.terminationStatus == 0 })
                        let report = try await shared.library.verify()
                        #expect(report.isHealthy, "\(report.problems)")
                        rounds += 1
                    }
                    #expect(try await shared.library.assets(inAlbumTitled: "Race").count == rounds)
                }
            }

            /// Waits until only this test's own sessions are connected to the library's database.
            private func waitForSessionsToEnd(_ shared: SharedTestLibrary) throws {
                let database = String(shared.url[shared.url.index(after: shared.url.lastIndex(of: "/")!)...])
                let deadline = Date().addingTimeInterval(10)
                while Date() < deadline {
                    let others = try shared.sql(
                        """
                        SELECT count(*) FROM pg_stat_activity a WHERE a.datname = $1 AND a.pid <> pg_backend_pid()
                        AND a.pid IN (SELECT owner_pid FROM upload_intent)
                        """, [database])[0][0]
                    if others == "0" { return }
                    usleep(20_000)
                }
            }
        }
    }
#endif
