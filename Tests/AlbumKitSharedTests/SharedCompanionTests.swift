#if os(Linux)
    import Foundation
    import Testing

    // copy(fromCatalogAt:) lives in the facade, which knows both the catalog and the shared library.
    import AlbumKit
    @testable import AlbumKitCore
    @testable import AlbumKitShared

    extension SharedServerTests {
        /// Sidecars and the raw of a RAW+JPEG pair in a shared library: objects stored before the
        /// commit that names them, listed and exported with the photo, updated by a save of the
        /// photo with an edited sidecar, kept by `gc` while their asset is there or in recently
        /// deleted, removed with it for good, carried by a copy in every direction; an older
        /// library gains the table when opened.
        @Suite struct SharedCompanionTests {
            /// `IMG_1.JPG` with `IMG_1.CR2` and `IMG_1.xmp` in `directory`.
            static func pair(in directory: URL) throws -> (photo: URL, raw: URL, xmp: URL, media: Media) {
                let photo = try SharedTestLibrary.uniqueJPEG(in: directory, "IMG_1")
                let jpeg = directory.appendingPathComponent("IMG_1.JPG")
                try FileManager.default.moveItem(at: photo, to: jpeg)
                let raw = directory.appendingPathComponent("IMG_1.CR2")
                try Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 13) } + Array(UUID().uuidString.utf8))
                    .write(to: raw)
                let xmp = directory.appendingPathComponent("IMG_1.xmp")
                try Data("<x:xmpmeta>\(UUID().uuidString) 5 stars</x:xmpmeta>".utf8).write(to: xmp)
                return (jpeg, raw, xmp, Media.file(jpeg).with(companions: [.raw(raw), .sidecar(xmp)]))
            }

            static func sha256(_ url: URL) throws -> String {
                try Data(contentsOf: url).withUnsafeBytes { SHA256Hasher.hash($0) }
            }

            static func objectHashes(_ shared: SharedTestLibrary) throws -> Set<String> {
                Set(try shared.objects().map { String($0.split(separator: "/").last ?? "") })
            }

            /// darktable's `IMG_1.CR2.xmp` beside the raw of a pair is exported under that name, the
            /// only one darktable reads (not `IMG_1.xmp`, which would be Lightroom's for the pair).
            @Test func aSidecarNamedAfterTheRawIsExportedUnderItsName() async throws {
                try await withTemporaryDirectory { directory in
                    let card = directory.appendingPathComponent("card")
                    try FileManager.default.createDirectory(at: card, withIntermediateDirectories: true)
                    let (photo, raw, _, _) = try Self.pair(in: card)
                    let darktable = card.appendingPathComponent("IMG_1.CR2.xmp")
                    try Data("<x:xmpmeta>darktable \(UUID().uuidString)</x:xmpmeta>".utf8).write(to: darktable)
                    let shared = try SharedTestLibrary()
                    let saved = try await shared.library.album(titled: "Pairs").save(
                        Media.file(photo).with(companions: [.raw(raw), .sidecar(darktable)]))
                    let listed = try #require(try await shared.library.assets(inAlbumTitled: "Pairs").first)
                    #expect(listed.companions.map(\.originalFilename) == ["IMG_1.CR2", "IMG_1.CR2.xmp"])
                    let out = directory.appendingPathComponent("out")
                    _ = try await shared.library.exportAlbum(
                        withID: try #require(saved.albumID), to: out, progress: nil)
                    #expect(
                        try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == [
                            "IMG_1.CR2", "IMG_1.CR2.xmp", "IMG_1.JPG",
                        ])
                    #expect(try Self.sha256(out.appendingPathComponent("IMG_1.CR2.xmp")) == Self.sha256(darktable))
                }
            }

            @Test func companionsAreSavedListedExportedUpdatedAndCollected() async throws {
                try await withTemporaryDirectory { directory in
                    let card = directory.appendingPathComponent("card")
                    try FileManager.default.createDirectory(at: card, withIntermediateDirectories: true)
                    let (_, raw, xmp, media) = try Self.pair(in: card)
                    let shared = try SharedTestLibrary()
                    let saved = try await shared.library.album(titled: "Pairs").save(media)
                    #expect(saved.companionsLeftOut.isEmpty && saved.companionsUpdated.isEmpty)
                    let listed = try #require(try await shared.library.assets(inAlbumTitled: "Pairs").first)
                    #expect(listed.companions.map(\.originalFilename) == ["IMG_1.CR2", "IMG_1.xmp"])
                    #expect(listed.companions.map(\.role) == [.raw, .sidecar])
                    #expect(listed.companions.map(\.sha256) == [try Self.sha256(raw), try Self.sha256(xmp)])
                    // Their objects are in the store, and verify checks them.
                    var objects = try Self.objectHashes(shared)
                    #expect(objects.isSuperset(of: [try Self.sha256(raw), try Self.sha256(xmp)]))
                    #expect(try await shared.library.verify().isHealthy)

                    // Exported beside the photo, byte for byte.
                    let out = directory.appendingPathComponent("out")
                    let albumID = try #require(saved.albumID)
                    _ = try await shared.library.exportAlbum(withID: albumID, to: out, progress: nil)
                    #expect(try Self.sha256(out.appendingPathComponent("IMG_1.CR2")) == Self.sha256(raw))
                    #expect(try Self.sha256(out.appendingPathComponent("IMG_1.xmp")) == Self.sha256(xmp))

                    // The sidecar edited and the photo saved again: the new version takes its place, the
                    // earlier object goes.
                    let earlier = try Self.sha256(xmp)
                    try Data("<x:xmpmeta>edited, 4 stars</x:xmpmeta>".utf8).write(to: xmp)
                    let again = try await shared.library.album(titled: "Pairs").save(media)
                    #expect(again.isExisting && again.assetID == saved.assetID)
                    #expect(again.companionsUpdated == ["IMG_1.xmp"])
                    let updated = try #require(try await shared.library.assets(inAlbumTitled: "Pairs").first)
                    #expect(updated.companions.map(\.sha256) == [try Self.sha256(raw), try Self.sha256(xmp)])
                    objects = try Self.objectHashes(shared)
                    #expect(!objects.contains(earlier), "the replaced sidecar's object is removed")
                    #expect(try await shared.library.verify().isHealthy)
                    let same = try await shared.library.album(titled: "Pairs").save(media)
                    #expect(same.isExisting && same.companionsUpdated.isEmpty)

                    // In recently deleted, gc keeps them; restored, they are listed again; purged, they go.
                    _ = try await shared.library.deleteAssets(withIDs: [saved.assetID])
                    _ = try await shared.library.collectGarbage()
                    #expect(try Self.objectHashes(shared).isSuperset(of: [try Self.sha256(raw), try Self.sha256(xmp)]))
                    _ = try await shared.library.restoreDeleted(withIDs: [saved.assetID])
                    let restored = try #require(try await shared.library.assets(inAlbumTitled: "Pairs").first)
                    #expect(restored.companions.count == 2)
                    _ = try await shared.library.deleteAssets(withIDs: [saved.assetID])
                    let purged = try await shared.library.removeDeletedPermanently(withIDs: [saved.assetID])
                    #expect(purged.removedObjects == 3, "the photo, its raw and its sidecar")
                    #expect(try shared.objects().isEmpty)
                    #expect(try await shared.library.verify().isHealthy)
                }
            }

            @Test func copiesCarryCompanionsInEveryDirection() async throws {
                try await withTemporaryDirectory { directory in
                    let (_, raw, xmp, media) = try Self.pair(in: directory)
                    let first = directory.appendingPathComponent("First.albumlibrary")
                    let catalog = try PhotoLibrary.catalog(at: first)
                    _ = try await catalog.album(titled: "Pairs").save(media)
                    let wanted = [try Self.sha256(raw), try Self.sha256(xmp)]

                    // catalog → shared (`album copy --from` a catalog keeps ids).
                    let shared = try SharedTestLibrary()
                    _ = try await shared.library.copy(fromCatalogAt: first)
                    let inShared = try #require(try await shared.library.assets(inAlbumTitled: "Pairs").first)
                    #expect(inShared.companions.map(\.sha256) == wanted)
                    #expect(try await shared.library.verify().isHealthy)

                    // shared → another shared, and shared → catalog.
                    let other = try SharedTestLibrary()
                    _ = try await shared.library.copy(into: other.library)
                    let inOther = try #require(try await other.library.assets(inAlbumTitled: "Pairs").first)
                    #expect(inOther.companions.map(\.sha256) == wanted)
                    let second = try PhotoLibrary.catalog(at: directory.appendingPathComponent("Second.albumlibrary"))
                    _ = try await other.library.copy(into: second)
                    let inCatalog = try #require(try await second.assets(inAlbumTitled: "Pairs").first)
                    #expect(inCatalog.companions.map(\.sha256) == wanted)
                    #expect(
                        try inCatalog.companions.map { try Self.sha256(#require($0.fileURL)) } == wanted)
                    #expect(try await second.verify().isHealthy)
                }
            }

            @Test func aLibraryOfTheEarlierSchemaGainsCompanionsWhenOpened() async throws {
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    try shared.sql("DROP TABLE asset_companion")
                    try shared.sql("UPDATE albumkit_setting SET value = '3' WHERE name = 'schema_version'")
                    let reopened = try SharedBackend.open(url: shared.url, environment: shared.environment)
                    #expect(
                        try shared.sql("SELECT value FROM albumkit_setting WHERE name = 'schema_version'").first?
                            .first == String(SharedSchema.version))
                    let (_, raw, _, media) = try Self.pair(in: directory)
                    let saved = try await PhotoLibrary(backend: reopened).save(media)
                    let listed = try await PhotoLibrary(backend: reopened).assets().assets
                    #expect(listed.first { $0.id == saved.assetID }?.companions.first?.sha256 == (try Self.sha256(raw)))
                }
            }
        }
    }
#endif
