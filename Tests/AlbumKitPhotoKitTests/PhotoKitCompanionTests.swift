#if !canImport(ObjectiveC)
    import AlbumKitCore
    import Foundation
    import PhotoKitSimulator
    import Testing

    @testable import AlbumKitPhotoKit

    /// A RAW+JPEG pair's raw goes to Photos as the photo's `.alternatePhoto`, an `.AAE` as its
    /// `.adjustmentData`; an `.xmp`, which Photos has no resource type for, is reported as left out.
    /// The simulator refuses what its model of Photos refuses: an alternate photo that is no image,
    /// adjustment data that is no adjustment envelope.
    @Suite struct PhotoKitCompanionTests {
        /// A folder with `IMG_1.JPG`, `IMG_1.CR2`, `IMG_1.AAE` (an envelope as Photos writes one) and
        /// `IMG_1.xmp`.
        static func pair(in dir: URL, aae: Data? = nil) throws -> Media {
            let jpeg = dir.appendingPathComponent("IMG_1.JPG")
            try FileManager.default.copyItem(at: PhotoKitHarness.jpeg, to: jpeg)
            let raw = dir.appendingPathComponent("IMG_1.CR2")
            try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7) }).write(to: raw)
            let envelope = try PropertyListSerialization.data(
                fromPropertyList: [
                    "adjustmentFormatIdentifier": "com.apple.photo", "adjustmentFormatVersion": "1.4",
                    "adjustmentData": Data("crop".utf8),
                ] as [String: Any], format: .xml, options: 0)
            let adjustments = dir.appendingPathComponent("IMG_1.AAE")
            try (aae ?? envelope).write(to: adjustments)
            let xmp = dir.appendingPathComponent("IMG_1.xmp")
            try Data("<x:xmpmeta/>".utf8).write(to: xmp)
            return Media.file(jpeg).with(companions: [.raw(raw), .sidecar(adjustments), .sidecar(xmp)])
        }

        static func withDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pk-companions-\(UUID())")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            return try await body(dir)
        }

        @Test func theRawAndTheAAEAreResourcesAndTheXMPIsLeftOut() async throws {
            try await Self.withDirectory { dir in
                let media = try Self.pair(in: dir)
                let h = PhotoKitHarness()
                let saved = try await h.run { try await h.library.album(titled: "Pairs").save(media) }
                let asset = try #require(h.simulation.asset(withLocalIdentifier: saved.assetID))
                #expect(asset.resources.map(\.type) == [.photo, .alternatePhoto, .adjustmentData])
                #expect(asset.resources.map(\.originalFilename) == ["IMG_1.JPG", "IMG_1.CR2", "IMG_1.AAE"])
                #expect(
                    asset.resources[1].data == (try Data(contentsOf: dir.appendingPathComponent("IMG_1.CR2"))))
                #expect(saved.companionsLeftOut == ["IMG_1.xmp"])
                let info = try await h.run { try await h.library.assets(inAlbumTitled: "Pairs") }
                #expect(info.first?.companions.map(\.originalFilename) == ["IMG_1.CR2", "IMG_1.AAE"])
                #expect(info.first?.companions.map(\.role) == [.raw, .sidecar])
            }
        }

        @Test func anAAEThatIsNoAdjustmentEnvelopeFailsTheSaveAndSavesNothing() async throws {
            try await Self.withDirectory { dir in
                let media = try Self.pair(in: dir, aae: Data("not a property list".utf8))
                let h = PhotoKitHarness()
                let result = await h.run { await h.library.album(titled: "Pairs").save([media])[0] }
                #expect(result.error != nil)
                #expect(h.simulation.assets.isEmpty)
            }
        }

        @Test func theSimulatorRefusesAnAlternatePhotoThatIsNoImage() throws {
            let h = PhotoKitHarness()
            let jpeg = try Data(contentsOf: PhotoKitHarness.jpeg)
            func commit(alternate name: String, uti: String? = nil) throws -> Bool {
                h.simulation.reset()
                h.simulation.setAuthorizationStatus(.authorized, for: .readWrite)
                return h.simulation.run {
                    do {
                        try PHPhotoLibrary.shared().performChangesAndWait {
                            let request = PHAssetCreationRequest.forAsset()
                            let options = PHAssetResourceCreationOptions()
                            options.originalFilename = "IMG_1.JPG"
                            request.addResource(with: .photo, data: jpeg, options: options)
                            let alternate = PHAssetResourceCreationOptions()
                            alternate.originalFilename = name
                            alternate.uniformTypeIdentifier = uti
                            request.addResource(with: .alternatePhoto, data: Data([1, 2, 3]), options: alternate)
                        }
                        return true
                    } catch {
                        return false
                    }
                }
            }
            #expect(try commit(alternate: "IMG_1.CR2"))
            #expect(try commit(alternate: "IMG_1.NEF"))
            #expect(try commit(alternate: "raw", uti: "com.adobe.raw-image"))
            #expect(try !commit(alternate: "IMG_1.xmp"), "an XMP is no alternate photo")
            #expect(try !commit(alternate: "IMG_1.MOV"), "nor a movie")
        }
    }
#endif
