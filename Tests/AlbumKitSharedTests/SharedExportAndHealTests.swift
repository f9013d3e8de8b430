#if os(Linux)
    import Foundation
    import Testing

    @testable import AlbumKitCore
    @testable import AlbumKitShared

    extension SharedServerTests {
        /// Photos come back out of a shared library, and a damaged object is found and healed.
        @Suite struct SharedExportAndHealTests {
            @Test func exportStreamsTheOriginalsWithTheirNamesAndDates() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let harbour = SharedServers.examples.appendingPathComponent("harbour.jpg")
                    let garden = SharedServers.examples.appendingPathComponent("garden.png")
                    _ = await shared.library.album(titled: "Out").save([.file(harbour), .file(garden)])
                    let target = directory.appendingPathComponent("export")
                    let report = try await shared.library.exportAlbum(titled: "Out", to: target)
                    #expect(report.failures.isEmpty, "\(report.failures)")
                    #expect(report.exported.map(\.name) == ["harbour.jpg", "garden.png"])
                    #expect(
                        try Data(contentsOf: target.appendingPathComponent("harbour.jpg")) == Data(contentsOf: harbour))
                    #expect(
                        try Data(contentsOf: target.appendingPathComponent("garden.png")) == Data(contentsOf: garden))
                    // harbour.jpg was taken 2026-05-01 10:20:30+02:00: that is its modification time.
                    let modified =
                        try FileManager.default.attributesOfItem(
                            atPath: target.appendingPathComponent("harbour.jpg").path)[.modificationDate] as? Date
                    #expect(modified == ISO8601DateFormatter().date(from: "2026-05-01T08:20:30Z"))
                    // The command line, into the same folder: a sync, the identical copies found,
                    // nothing written again.
                    let run = Shell.run(
                        Shell.album, ["--json", "export", "Out", target.path], environment: shared.environment)
                    #expect(run.status == 0, "\(run)")
                    let line = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
                    #expect((line?["exported"] as? [Any])?.isEmpty == true, "\(run)")
                    #expect(
                        ((line?["alreadyThere"] as? [[String: Any]]) ?? []).compactMap { $0["file"] as? String }
                            .sorted()
                            == ["garden.png", "harbour.jpg"])
                }
            }

            @Test func aDamagedObjectFailsItsExportAloneAndIsHealedBySavingThePhotoAgain() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let harbour = SharedServers.examples.appendingPathComponent("harbour.jpg")
                    let first = try await shared.library.album(titled: "A").save(.file(harbour))
                    _ = try await shared.library.album(titled: "A").save(
                        .file(SharedServers.examples.appendingPathComponent("garden.png")))
                    // Other bytes of the same size written over the object in the store.
                    let sha = try #require(try await shared.library.assets(inAlbumTitled: "A").first?.sha256)
                    let key = "\(shared.prefix)originals/\(sha.prefix(2))/\(sha)"
                    let size = try Data(contentsOf: harbour).count
                    let other = directory.appendingPathComponent("other.bin")
                    try Data(repeating: 0x5a, count: size).write(to: other)
                    let (file, _) = try FileSystem.openForReading(other.path)
                    defer { FileSystem.close(file) }
                    try shared.backend.store.put(
                        key: key, file: file, length: UInt64(size),
                        sha256: try FileSystem.sha256(of: file), replacing: true)
                    #expect(try shared.backend.store.size(of: key) == UInt64(size))
                    // verify names it and says how to repair it.
                    let report = try await shared.library.verify()
                    #expect(report.problems.count == 1)
                    #expect(report.problems.first?.contains("damaged") == true)
                    #expect(report.problems.first?.contains("save the photo (harbour.jpg) again") == true)
                    // export fails that asset alone and writes nothing for it.
                    let target = directory.appendingPathComponent("export")
                    let exported = try await shared.library.exportAlbum(titled: "A", to: target)
                    #expect(exported.exported.map(\.name) == ["garden.png"])
                    #expect(exported.failures.map(\.code) == [.libraryCorrupt])
                    #expect(!FileManager.default.fileExists(atPath: target.appendingPathComponent("harbour.jpg").path))
                    // Saving the photo again finds the damage (not only the size) and puts it right.
                    let again = try await shared.library.album(titled: "B").save(.file(harbour))
                    #expect(again.assetID == first.assetID && again.isExisting && again.isRestored)
                    #expect(try shared.backend.store.storedSHA256(of: key) == sha)
                    #expect(try await shared.library.verify().isHealthy)
                    // An intact object is left alone.
                    let third = try await shared.library.album(titled: "C").save(.file(harbour))
                    #expect(third.isExisting && !third.isRestored)
                }
            }

            /// The checks a re-save makes without downloading: the store's SHA-256, else a
            /// single-part ETag; otherwise it reads the object back.
            @Test func theConditionOfAnObjectIsJudgedByItsBytes() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let url = try SharedTestLibrary.uniqueJPEG(in: directory, "c")
                    let (file, size) = try FileSystem.openForReading(url.path)
                    defer { FileSystem.close(file) }
                    let sha = try FileSystem.sha256(of: file)
                    let key = shared.prefix + "probe/c"
                    let store = try shared.backend.store
                    #expect(try store.condition(of: key, size: size, sha256: sha, file: file) == .missing)
                    try store.put(key: key, file: file, length: size, sha256: sha)
                    #expect(try store.condition(of: key, size: size, sha256: sha, file: file) == .intact)
                    #expect(
                        try store.condition(of: key, size: size, sha256: String(repeating: "0", count: 64), file: file)
                            == .damaged)
                    #expect(try store.condition(of: key, size: size + 1, sha256: sha, file: file) == .damaged)
                }
            }
        }
    }
#endif
