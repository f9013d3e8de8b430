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
        /// A clip's `.THM` (a camera's JPEG of it, kept as its companion) is its picture in a shared
        /// library too, as in a catalog and a folder library, when the object read back is the one the
        /// library recorded; another object put there is not shown: the frame is decoded instead.
        @Suite struct SharedClipPosterTests {
            @Test func aClipsTHMIsItsPictureAndAnotherObjectInItsPlaceIsNot() async throws {
                try ExternalTool.requireLibvips()
                try await withTemporaryDirectory { directory in
                    // The clip is 160 × 120; its .THM a green 320 × 240, enough for a 256-pixel thumbnail.
                    let clip = directory.appendingPathComponent("MVI_0001.MP4")
                    try Data(contentsOf: Fixture.video).write(to: clip)
                    let thm = directory.appendingPathComponent("MVI_0001.THM")
                    let red = directory.appendingPathComponent("red.jpg")
                    try ExternalTool.python(
                        """
                        import sys
                        from PIL import Image
                        Image.new('RGB', (320, 240), (0, 200, 0)).save(sys.argv[1], 'JPEG')
                        Image.new('RGB', (320, 240), (200, 0, 0)).save(sys.argv[2], 'JPEG')
                        """, modules: ["PIL"], arguments: [thm.path, red.path])
                    let shared = try SharedTestLibrary()
                    let saved = try await shared.library.album(titled: "Clips").save(
                        Media.file(clip).with(companions: [.sidecar(thm)]))
                    let listed = try #require(try await shared.library.assets(inAlbumTitled: "Clips").first)
                    let companion = try #require(listed.companions.first)
                    let thmSHA256 = try #require(companion.sha256)
                    let thmKey = try shared.backend.store.key(SharedSchema.objectName(sha256: thmSHA256))
                    let clipSHA256 = try #require(listed.sha256)
                    let thumbnailKey = try #require(shared.backend.derivativeKey(sha256: clipSHA256, size: .thumbnail))

                    // Another picture in the .THM's place, padded to its size: not the bytes recorded.
                    let original = try Data(contentsOf: thm)
                    var forged = try Data(contentsOf: red)
                    try #require(forged.count <= original.count)
                    forged += Data(repeating: 0, count: original.count - forged.count)
                    try shared.backend.store.put(key: thmKey, bytes: Array(forged), contentType: "image/jpeg")
                    let decoded = try #require(try await shared.library.thumbnail(forAssetWithID: saved.assetID))
                    #expect(decoded.pixelWidth == 160 && decoded.pixelHeight == 120, "the clip's own frame")

                    // The recorded .THM back, the kept thumbnail gone: the camera's picture is the clip's.
                    try shared.backend.store.put(key: thmKey, bytes: Array(original), contentType: "image/jpeg")
                    try shared.backend.store.delete(key: thumbnailKey)
                    let poster = try #require(try await shared.library.thumbnail(forAssetWithID: saved.assetID))
                    #expect(poster.pixelWidth == 256 && poster.pixelHeight == 192)
                    let file = directory.appendingPathComponent("poster.jpg")
                    try poster.data.write(to: file)
                    let centre = try ExternalTool.python(
                        "import sys\nfrom PIL import Image\nprint(*Image.open(sys.argv[1]).convert('RGB').getpixel((128, 96)))",
                        modules: ["PIL"], arguments: [file.path]
                    ).split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
                    #expect(
                        centre.count == 3 && centre[1] > 150 && centre[0] < 60 && centre[2] < 60, "green, not \(centre)"
                    )
                }
            }
        }
    }
#endif
