#if os(Linux)
    import AlbumKitConformance
    import AlbumKitMedia
    import AlbumKitPreviews
    import AlbumTestSupport
    import Foundation
    import Testing

    @testable import AlbumKitCore
    @testable import AlbumKitShared

    extension SharedServerTests {
        /// A shared library keeps its thumbnails and previews in its object store, keyed by the
        /// original's SHA-256: reused by every machine, never believed unless they decode, made again
        /// when forged, removed by `gc` with their originals only.
        @Suite struct SharedDerivativeTests {
            /// The key of `sha256`'s derivative at `size` in `shared`.
            static func key(_ shared: SharedTestLibrary, _ sha256: String, _ size: PreviewSize) -> String {
                "\(shared.prefix)derivatives/\(size.pixels)/\(sha256.prefix(2))/\(sha256).jpg"
            }

            /// Saves a photo of its own bytes into "Trips"; its id and SHA-256.
            static func savePhoto(_ shared: SharedTestLibrary, in directory: URL, _ label: String) async throws
                -> (id: String, sha256: String)
            {
                let photo = try SharedTestLibrary.uniqueJPEG(in: directory, label)
                let saved = try await shared.library.album(titled: "Trips").save(.file(photo))
                let asset = try #require(
                    try await shared.library.assets(inAlbumTitled: "Trips").first {
                        $0.id == saved.assetID
                    })
                return (saved.assetID, try #require(asset.sha256))
            }

            /// The requests sent since the counters were last cleared, cleared again.
            static func requests(_ backend: SharedBackend) -> [String: Int] {
                (try? backend.store)?.sentRequests.withLock { sent in
                    defer { sent = [:] }
                    return sent
                } ?? [:]
            }

            @Test func theSecondThumbnailIsOneReadOfTheKeptObject() async throws {
                try ExternalTool.requireLibvips()
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let photo = try await Self.savePhoto(shared, in: directory, "harbour")
                    #expect(try !shared.objects().contains(Self.key(shared, photo.sha256, .thumbnail)))

                    _ = Self.requests(shared.backend)
                    let first = try #require(try await shared.library.thumbnail(forAssetWithID: photo.id))
                    #expect(first.pixelWidth == 256 && first.pixelHeight == 192)
                    #expect(Self.requests(shared.backend)["PUT"] == 1)
                    #expect(try shared.objects().contains(Self.key(shared, photo.sha256, .thumbnail)))
                    _ = Self.requests(shared.backend)  // the listing just above

                    let second = try #require(try await shared.library.thumbnail(forAssetWithID: photo.id))
                    #expect(second.data == first.data)
                    #expect(Self.requests(shared.backend) == ["GET": 1])
                    let kept = try #require(try await shared.backend.preview(ofAssetWithID: photo.id, size: .thumbnail))
                    #expect(kept.wasKept)

                    // `album previews` makes the other sizes, then finds all three kept.
                    let run = Shell.run(Shell.album, ["previews"], environment: shared.environment)
                    #expect(run.status == 0 && run.stdout.contains("made 2, reused 1, failed 0"), "\(run)")
                    let again = Shell.run(Shell.album, ["--json", "previews"], environment: shared.environment)
                    #expect(again.stdout.contains(#""made":0"#) && again.stdout.contains(#""reused":3"#), "\(again)")
                    for size in PreviewSize.allCases {
                        #expect(try shared.objects().contains(Self.key(shared, photo.sha256, size)))
                    }
                    // A cache is never a problem of `verify`.
                    #expect(try await shared.library.verify().isHealthy)
                }
            }

            /// A 2048-pixel preview of a noisy photo is megabytes: read back whole, in one GET (a
            /// response kept in memory was cut at 1 MiB, and such a preview was made again each time).
            @Test func aPreviewOfSeveralMegabytesIsReadBackWhole() async throws {
                try ExternalTool.requireLibvips()
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let photo = directory.appendingPathComponent("noise.jpg").path
                    try SharedThumbnailTests.tool(
                        "convert", ["-size", "2400x1800", "xc:", "+noise", "Random", "-quality", "95", photo])
                    let saved = try await shared.library.album(titled: "Trips").save(.file(URL(fileURLWithPath: photo)))
                    let made = try #require(
                        try await shared.backend.preview(ofAssetWithID: saved.assetID, size: .preview))
                    #expect(!made.wasKept && made.preview.bytes.count > 1 << 20, "\(made.preview.bytes.count) bytes")
                    _ = Self.requests(shared.backend)
                    let kept = try #require(
                        try await shared.backend.preview(ofAssetWithID: saved.assetID, size: .preview))
                    #expect(kept.wasKept && kept.preview.bytes == made.preview.bytes)
                    #expect(Self.requests(shared.backend) == ["GET": 1])
                }
            }

            @Test func thumbnailsAreMadeInTheBackgroundAfterASaveWhenAsked() async throws {
                try ExternalTool.requireLibvips()
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let photos = [
                        try await Self.savePhoto(shared, in: directory, "one"),
                        try await Self.savePhoto(shared, in: directory, "two"),
                    ]
                    await shared.library.makeThumbnailsInBackground(ofAssetsWithIDs: photos.map(\.id))
                    await BackgroundPreviews.shared.finished()
                    let objects = try shared.objects()
                    for photo in photos {
                        #expect(objects.contains(Self.key(shared, photo.sha256, .thumbnail)))
                        #expect(objects.contains(Self.key(shared, photo.sha256, .largeThumbnail)))
                        // The detail view's preview is made when first asked for.
                        #expect(!objects.contains(Self.key(shared, photo.sha256, .preview)))
                    }
                    _ = Self.requests(shared.backend)
                    #expect(try await shared.library.thumbnail(forAssetWithID: photos[1].id) != nil)
                    #expect(Self.requests(shared.backend) == ["GET": 1])
                }
            }

            @Test func aForgedThumbnailIsNeverBelievedAndIsReplaced() async throws {
                try ExternalTool.requireLibvips()
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let photo = try await Self.savePhoto(shared, in: directory, "harbour")
                    let made = try #require(try await shared.backend.preview(ofAssetWithID: photo.id, size: .thumbnail))
                    let key = Self.key(shared, photo.sha256, .thumbnail)
                    let renderer = try PreviewPipeline.renderer()
                    let original = Array(Fixture.jpegBytes)
                    let forgeries: [(String, [UInt8])] = [
                        ("other bytes", Array("not a picture at all".utf8)),
                        (
                            "a PNG",
                            try renderer.render(.bytes(original), maxPixelSize: 100, encoding: .png(text: [:])).bytes
                        ),
                        ("a JPEG cut short", Array(made.preview.bytes.prefix(made.preview.bytes.count / 2))),
                        ("a JPEG of the wrong size", try renderer.render(.bytes(original), maxPixelSize: 320).bytes),
                    ]
                    for (forgery, bytes) in forgeries {
                        try shared.backend.store.put(key: key, bytes: bytes, contentType: "image/jpeg")
                        let answer = try #require(
                            try await shared.backend.preview(ofAssetWithID: photo.id, size: .thumbnail))
                        #expect(!answer.wasKept, "\(forgery) was believed")
                        #expect(answer.preview.format == .jpeg && answer.preview.longestSide == 256, "\(forgery)")
                        // Put back in its place: the next request reads the derivative made again.
                        let stored = try shared.backend.store.get(key: key, offset: 0, count: 1 << 20)
                        #expect(stored == answer.preview.bytes, "\(forgery)")
                        let next = try #require(
                            try await shared.backend.preview(ofAssetWithID: photo.id, size: .thumbnail))
                        #expect(next.wasKept, "\(forgery)")
                    }
                }
            }

            @Test func anotherMachineReusesTheThumbnailOneMade() async throws {
                try ExternalTool.requireLibvips()
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let photo = try await Self.savePhoto(shared, in: directory, "harbour")
                    // Made by another process: `album thumbnail`.
                    let output = directory.appendingPathComponent("thumb.jpg").path
                    let run = Shell.run(
                        Shell.album, ["thumbnail", photo.id, "--output", output], environment: shared.environment)
                    #expect(run.status == 0, "\(run)")
                    #expect(try shared.objects().contains(Self.key(shared, photo.sha256, .thumbnail)))
                    // Read by this one, through a connection of its own: one GET, nothing made.
                    let other = try SharedBackend.open(url: shared.url, environment: shared.environment)
                    let kept = try #require(try await other.preview(ofAssetWithID: photo.id, size: .thumbnail))
                    #expect(kept.wasKept)
                    #expect(Self.requests(other) == ["GET": 1])
                    #expect(try Array(Data(contentsOf: URL(fileURLWithPath: output))) == kept.preview.bytes)
                }
            }

            @Test func aMemberWhoseKeysOnlyReadReadsKeptThumbnailsAndMakesTheOthersWithoutKeeping() async throws {
                try ExternalTool.requireLibvips()
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let kept = try await Self.savePhoto(shared, in: directory, "kept")
                    let other = try await Self.savePhoto(shared, in: directory, "other")
                    _ = try await shared.backend.preview(ofAssetWithID: kept.id, size: .thumbnail)
                    let roles = try await shared.library.createMemberRoles()
                    let readerURL = try SharedMembersTests.member(
                        roles.reader.replacingOccurrences(of: "_reader", with: "_rita"), of: roles.reader, in: shared)
                    var environment = shared.environment
                    let exports = try SharedServers.environment()
                    // Keys the test servers give read and list rights only (Scripts/shared-library.sh).
                    environment["AWS_ACCESS_KEY_ID"] = exports["ALBUMKIT_S3_READER_KEY_ID"] ?? ""
                    environment["AWS_SECRET_ACCESS_KEY"] = exports["ALBUMKIT_S3_READER_SECRET"] ?? ""
                    #expect(environment["AWS_ACCESS_KEY_ID"]?.isEmpty == false, "the servers give no read-only keys")
                    let reader = try SharedBackend.open(url: readerURL, environment: environment)

                    // The kept one is read as it is.
                    let read = try #require(try await reader.preview(ofAssetWithID: kept.id, size: .thumbnail))
                    #expect(read.wasKept)
                    // The other is made for each request: the store refuses it once, and is not asked again.
                    let objects = try shared.objects()
                    for _ in 0..<2 {
                        let made = try #require(try await reader.preview(ofAssetWithID: other.id, size: .thumbnail))
                        #expect(!made.wasKept && made.preview.longestSide == 256)
                    }
                    #expect(try shared.objects() == objects)
                    #expect(reader.keepingRefused.withLock { $0 })
                    #expect(Self.requests(reader)["PUT"] == 1)
                    // Through the API, as an app would ask.
                    let thumbnail = try await PhotoLibrary(backend: reader).thumbnail(forAssetWithID: other.id)
                    #expect(thumbnail?.pixelWidth == 256)
                }
            }

            @Test func garbageCollectionRemovesOnlyThumbnailsOfOriginalsGoneForGood() async throws {
                try ExternalTool.requireLibvips()
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    let gone = try await Self.savePhoto(shared, in: directory, "gone")
                    let stays = try await Self.savePhoto(shared, in: directory, "stays")
                    for photo in [gone, stays] {
                        for size in PreviewSize.allCases {
                            _ = try await shared.backend.preview(ofAssetWithID: photo.id, size: size)
                        }
                    }
                    // Objects under the prefix that AlbumKit never makes: left alone, whatever they hold.
                    let foreign = (0..<64).map { _ in "e" }.joined()
                    let strangers = [
                        "derivatives/256/zz/not-a-digest.jpg", "derivatives/999/\(foreign.prefix(2))/\(foreign).jpg",
                        "derivatives/256/ab/\(foreign).jpg", "derivatives/256/\(foreign.prefix(2))/\(foreign).png",
                        "derivatives/256/\(foreign.prefix(2))/\(foreign).jpg/x", "derivatives/notes.txt",
                    ].map { shared.prefix + $0 }
                    for key in strangers {
                        try shared.backend.store.put(key: key, bytes: Array("x".utf8), contentType: "text/plain")
                    }
                    // An orphan of the right form: its original was never in this library.
                    let orphan = Self.key(shared, foreign, .thumbnail)
                    try shared.backend.store.put(key: orphan, bytes: Array("x".utf8), contentType: "image/jpeg")

                    // In recently deleted, a photo keeps its thumbnails (it may come back).
                    try await shared.library.deleteAssets(withIDs: [gone.id])
                    var report = try await shared.library.collectGarbage()
                    #expect(report.removedDerivatives == 1)
                    var objects = try shared.objects()
                    #expect(!objects.contains(orphan))
                    for size in PreviewSize.allCases {
                        #expect(objects.contains(Self.key(shared, gone.sha256, size)))
                    }
                    // Gone for good: its thumbnails go with it at the next `gc`, nothing else does.
                    _ = try await shared.library.removeDeletedPermanently(withIDs: [gone.id])
                    report = try await shared.library.collectGarbage()
                    #expect(report.removedDerivatives == 3)
                    objects = try shared.objects()
                    for size in PreviewSize.allCases {
                        #expect(!objects.contains(Self.key(shared, gone.sha256, size)))
                        #expect(objects.contains(Self.key(shared, stays.sha256, size)))
                    }
                    for key in strangers { #expect(objects.contains(key), "\(key) was removed") }
                    #expect(try await shared.library.verify().isHealthy)
                    let run = Shell.run(Shell.album, ["gc"], environment: shared.environment)
                    #expect(run.status == 0 && run.stdout.contains("and 0 thumbnails or previews"), "\(run)")
                }
            }
        }
    }
#endif
