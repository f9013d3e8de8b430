#if os(Linux)
    import AlbumTestSupport
    import Foundation
    import Testing

    @testable import AlbumKitCore
    @testable import AlbumKitShared

    extension SharedServerTests {
        /// A shared library's thumbnails: the EXIF thumbnail of the original in the object store,
        /// read with ranged GETs rather than downloading the whole original.
        @Suite struct SharedThumbnailTests {
            /// Runs `tool` (ImageMagick's `convert`, `exiftool`) and expects it to succeed; a missing
            /// one skips the test outside CI (``ExternalTool``).
            static func tool(_ tool: String, _ arguments: [String]) throws {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: try ExternalTool.require(tool))
                process.arguments = arguments
                process.standardOutput = FileHandle.nullDevice
                try process.run()
                process.waitUntilExit()
                #expect(process.terminationStatus == 0, "\(tool) \(arguments)")
            }

            @Test func theStoredThumbnailComesFromAFewRangedReads() async throws {
                try ExternalTool.requireLibvips()
                try await withTemporaryDirectory { directory in
                    let shared = try SharedTestLibrary()
                    // A camera-sized photo (noise compresses badly: a few megabytes) with a thumbnail.
                    let photo = directory.appendingPathComponent("IMG_0001.JPG").path
                    let small = directory.appendingPathComponent("small.jpg").path
                    try Self.tool(
                        "convert", ["-size", "1600x1200", "xc:", "+noise", "Random", "-quality", "95", photo])
                    try Self.tool("convert", ["-size", "160x120", "xc:green", small])
                    try Self.tool("exiftool", ["-q", "-overwrite_original", "-ThumbnailImage<=" + small, photo])
                    let size = try FileManager.default.attributesOfItem(atPath: photo)[.size] as! Int
                    #expect(size > 1 << 20)
                    let png = SharedServers.examples.appendingPathComponent("garden.png")
                    let results = await shared.library.album(titled: "Trips").save([
                        .file(URL(fileURLWithPath: photo)), .file(png),
                    ])
                    let ids = try results.map { try $0.get().assetID }

                    // Rendered by libvips from the original (the stored 160 × 120 is too small for 256).
                    let thumbnail = try #require(try await shared.library.thumbnail(forAssetWithID: ids[0]))
                    #expect(!thumbnail.isEmbedded && thumbnail.format == .jpeg)
                    #expect(thumbnail.pixelWidth == 256 && thumbnail.pixelHeight == 192)
                    // Fitted in 100 pixels, it comes from the stored thumbnail (big enough then).
                    let fitted = try #require(
                        try await shared.library.thumbnail(forAssetWithID: ids[0], maxPixelSize: 100))
                    #expect(fitted.pixelWidth == 100 && fitted.pixelHeight == 75)
                    let garden = try #require(try await shared.library.thumbnail(forAssetWithID: ids[1]))
                    #expect(max(garden.pixelWidth, garden.pixelHeight) <= 256 && garden.format == .jpeg)
                    await #expect(throws: AlbumError.self) {
                        try await shared.library.thumbnail(forAssetWithID: "no-such-asset")
                    }

                    // The same read, counted: one 64 KiB range holds the EXIF block of a JPEG.
                    let sha = try #require(try await shared.library.assets(inAlbumTitled: "Trips").first?.sha256)
                    let source = ObjectByteSource(
                        store: try shared.backend.store, key: "\(shared.prefix)originals/\(sha.prefix(2))/\(sha)",
                        size: UInt64(size))
                    let read = try MediaInspector().embeddedThumbnail(source)
                    #expect(read?.width == 160)
                    #expect(source.requests <= 2, "\(source.requests) requests for a \(size)-byte original")
                }
            }
        }
    }
#endif
