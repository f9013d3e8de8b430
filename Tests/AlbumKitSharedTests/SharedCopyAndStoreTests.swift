#if os(Linux)
    import Foundation
    import Testing

    // copy(fromCatalogAt:) lives in the facade, which knows both the catalog and the shared library.
    import AlbumKit
    @testable import AlbumKitCore
    @testable import AlbumKitShared

    extension SharedServerTests {
        @Suite struct SharedCopyAndStoreTests {
            @Test func catalogCopiesWithAlbumsDatesAndNamesAndCanBeCopiedAgain() async throws {
                try await withTemporaryDirectory { directory in
                    let catalog = try PhotoLibrary.catalog(at: directory.appendingPathComponent("L.albumlibrary"))
                    let examples = SharedServers.examples
                    _ = try await catalog.album(titled: "Trips").save(
                        .file(examples.appendingPathComponent("harbour.jpg")))
                    _ = try await catalog.album(titled: "Trips").save(
                        .file(examples.appendingPathComponent("clip.mp4")))
                    _ = try await catalog.album(titled: "Garden").save(
                        .file(examples.appendingPathComponent("garden.png")))
                    _ = try await catalog.save(.file(examples.appendingPathComponent("sky.heic")))
                    let shared = try SharedTestLibrary()

                    let first = try await shared.library.copy(
                        fromCatalogAt: directory.appendingPathComponent("L.albumlibrary"))
                    #expect(first == CopyReport(copiedAssets: 4, existingAssets: 0, albums: 2, memberships: 3))
                    let source = try await catalog.albums()
                    let copied = try await shared.library.albums()
                    #expect(copied.map(\.id) == source.map(\.id) && copied.map(\.title) == ["Trips", "Garden"])
                    for (a, b) in zip(source, copied) {
                        #expect(abs(a.createdAt!.timeIntervalSince(b.createdAt!)) < 0.001)
                        let before = try await catalog.assets(inAlbumTitled: a.title)
                        let after = try await shared.library.assets(inAlbumTitled: b.title)
                        #expect(before.map(\.id) == after.map(\.id))
                        #expect(before.map(\.originalFilename) == after.map(\.originalFilename))
                        #expect(before.map(\.sha256) == after.map(\.sha256))
                        #expect(zip(before, after).allSatisfy { abs($0.addedAt.timeIntervalSince($1.addedAt)) < 0.001 })
                    }
                    #expect(try await shared.library.verify().isHealthy)

                    // Again: nothing new, nothing duplicated.
                    let second = try await shared.library.copy(
                        fromCatalogAt: directory.appendingPathComponent("L.albumlibrary"))
                    #expect(second == CopyReport(copiedAssets: 0, existingAssets: 4, albums: 0, memberships: 0))
                    #expect(try shared.sql("SELECT count(*) FROM asset")[0][0] == "4")
                    #expect(try shared.objects().count == 4)
                }
            }

            @Test func largeFilesGoUpInPartsAndComeBackIdentical() throws {
                try withTemporaryDirectoryNow { directory in
                    let shared = try SharedTestLibrary()
                    let exports = try SharedServers.environment()
                    let store = try S3Client(
                        location: shared.backend.store.location,
                        credentials: ObjectStoreCredentials.resolve(exports), retryWindow: 10,
                        multipartThreshold: 6 << 20, partSize: 5 << 20)
                    var bytes = [UInt8](repeating: 0, count: 13 << 20)
                    for index in stride(from: 0, to: bytes.count, by: 4096) { bytes[index] = UInt8.random(in: 0...255) }
                    let path = directory.appendingPathComponent("big.bin").path
                    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
                    let (file, size) = try FileSystem.openForReading(path)
                    defer { FileSystem.close(file) }
                    let sha = try FileSystem.sha256(of: file)
                    let key = store.key("big/\(sha)")
                    #expect(try store.put(key: key, file: file, length: size, sha256: sha))
                    #expect(try store.put(key: key, file: file, length: size, sha256: sha) == false)  // already there
                    #expect(try store.size(of: key) == size)
                    let copyPath = directory.appendingPathComponent("back.bin").path
                    _ = FileManager.default.createFile(atPath: copyPath, contents: nil)
                    // The descriptor owns the file it was given: closed once, when `back` goes.
                    let back = FileSystem.Descriptor(fd: open(copyPath, O_RDWR), path: copyPath)
                    try store.get(key: key, into: back)
                    #expect(try FileSystem.sha256(of: back) == sha)
                    try store.delete(key: key)
                    #expect(try store.size(of: key) == nil)
                }
            }

            @Test func theStoreRefusesAPartThatDoesNotMatchItsMD5() throws {
                // Parts are not hashed for the signature (UNSIGNED-PAYLOAD): their Content-MD5 is what
                // guards their bytes, so a store that ignored it would take damaged parts silently.
                try withTemporaryDirectoryNow { directory in
                    let shared = try SharedTestLibrary()
                    let store = try shared.backend.store
                    let path = directory.appendingPathComponent("part.bin").path
                    _ = FileManager.default.createFile(atPath: path, contents: Data(repeating: 7, count: 5 << 20))
                    let (file, size) = try FileSystem.openForReading(path)
                    defer { FileSystem.close(file) }
                    let key = store.key("parts/bad")
                    let uploadID = try store.startMultipart(key: key, headers: [:])
                    defer { try? store.abortMultipart(key: key, uploadID: uploadID) }
                    let right = try Digests.md5(of: file, offset: 0, length: size)
                    var wrong = right
                    wrong[0] ^= 1
                    #expect(throws: ObjectStoreError.self) {
                        try store.putPart(1, of: uploadID, key: key, file: file, range: (0, size), md5: wrong)
                    }
                    let etag = try store.putPart(1, of: uploadID, key: key, file: file, range: (0, size), md5: right)
                    #expect(!etag.isEmpty)
                }
            }

            /// A photo that goes up in one PUT is hashed where it is, not copied: the source is left
            /// as it was, and bytes changed after hashing are refused by the store, with an error that
            /// says the file changed.
            @Test func aPhotoHashedInPlaceIsRefusedWhenItChangesBeforeItsUpload() throws {
                try withTemporaryDirectoryNow { directory in
                    let shared = try SharedTestLibrary()
                    let store = try shared.backend.store
                    let source = try SharedTestLibrary.uniqueJPEG(in: directory, "IMG_1")
                    let jpeg = try Data(contentsOf: source)
                    let staging = directory.appendingPathComponent("staging")
                    try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
                    let staged = try StagedMedia(
                        .file(source), owners: staging.path + "/owners", flush: false,
                        inPlaceUpTo: store.multipartThreshold
                    ) { try FileSystem.openDirectory(staging.path) }
                    defer {
                        FileSystem.abandon(staged.file)
                        FileSystem.close(staged.file.directory)
                    }
                    #expect(staged.isInPlace)
                    #expect(
                        try FileManager.default.contentsOfDirectory(atPath: staging.path).filter { $0 != "owners" }
                            .isEmpty)
                    // Changed after hashing, same size: the store checks the SHA-256 and refuses it.
                    var changed = jpeg
                    changed[changed.count - 3] ^= 0xFF
                    try changed.write(to: source)
                    let key = store.key("inplace/\(staged.sha256)")
                    do {
                        try store.put(
                            key: key, file: staged.file.descriptor, length: UInt64(staged.byteSize),
                            sha256: staged.sha256)
                        Issue.record("the store took bytes that do not match their SHA-256")
                    } catch let error as ObjectStoreError {
                        let mapped = error.albumError("upload the photos", store: "the store")
                        #expect(mapped.code == .fileUnreadable && mapped.message.contains("changed"), "\(error)")
                    }
                    #expect(try store.size(of: key) == nil)
                    #expect(try Data(contentsOf: source) == changed, "the source is never touched")
                }
            }

            @Test func theStoreRefusesABodyThatDoesNotMatchItsChecksum() throws {
                try withTemporaryDirectoryNow { directory in
                    let shared = try SharedTestLibrary()
                    let path = directory.appendingPathComponent("a.bin").path
                    _ = FileManager.default.createFile(atPath: path, contents: Data("some bytes".utf8))
                    let (file, size) = try FileSystem.openForReading(path)
                    defer { FileSystem.close(file) }
                    let wrong = String(repeating: "ab", count: 32)
                    #expect(throws: ObjectStoreError.self) {
                        try shared.backend.store.put(
                            key: shared.backend.store.key("bad"), file: file, length: size, sha256: wrong)
                    }
                    #expect(try shared.backend.store.size(of: shared.backend.store.key("bad")) == nil)
                }
            }
        }

    }

    func withTemporaryDirectoryNow<T>(_ body: (URL) throws -> T) throws -> T {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
            "albumkit-shared-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        return try body(url)
    }
#endif
