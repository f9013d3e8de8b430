import AlbumKitCatalog
import AlbumKitConformance
import AlbumKitCore
import AlbumKitFolders
import AlbumTestSupport
import Foundation
import Testing

/// Thumbnails and previews made by libvips on the catalog, folder and in-memory libraries, and where
/// each keeps them (Docs/previews.md).
@Suite struct PreviewTests {
    /// A 4000 × 3000 JPEG stored turned (EXIF orientation 6: shown 3000 × 4000) with no stored
    /// thumbnail, made by Pillow.
    static func turnedPhoto(in folder: URL, name: String = "turned.jpg") throws -> URL {
        try ExternalTool.python(
            """
            import sys
            from PIL import Image
            exif = Image.Exif(); exif[0x0112] = 6
            Image.new('RGB', (4000, 3000), (200, 30, 40)).save(sys.argv[1], exif=exif, quality=85)
            """, modules: ["PIL"], arguments: [folder.appendingPathComponent(name).path])
        return folder.appendingPathComponent(name)
    }

    /// The PNG text chunks Pillow reads from `file`.
    static func pngText(_ file: URL) throws -> [String: String] {
        let json = try ExternalTool.python(
            "import sys, json\nfrom PIL import Image\nim = Image.open(sys.argv[1]); print(json.dumps(dict(im.text)))",
            modules: ["PIL"], arguments: [file.path])
        return try JSONDecoder().decode([String: String].self, from: Data(json.utf8))
    }

    @Test func theCatalogKeepsATurnedThumbnailAndRemakesADamagedOne() async throws {
        try ExternalTool.requireLibvips()
        try await Fixture.withTemporaryDirectory { folder in
            let photo = try Self.turnedPhoto(in: folder)
            let root = folder.appendingPathComponent("Photos.albumlibrary")
            let library = try PhotoLibrary.catalog(at: root)
            let saved = try await library.album(titled: "Trips").save(.file(photo))
            let thumbnail = try #require(try await library.thumbnail(forAssetWithID: saved.assetID))
            #expect((thumbnail.pixelWidth, thumbnail.pixelHeight) == (192, 256))
            #expect(!thumbnail.isEmbedded && thumbnail.format == .jpeg)

            let sha = try Fixture.sha256(ofFileAt: photo)
            let kept = root.appendingPathComponent("derivatives/256/\(sha.prefix(2))/\(sha).jpg")
            #expect(try Data(contentsOf: kept) == thumbnail.data)
            let mode = try FileManager.default.attributesOfItem(atPath: kept.path)[.posixPermissions] as? Int
            #expect(mode.map { $0 & 0o077 == 0 } == true, "kept with mode \(String(mode ?? 0, radix: 8))")

            // Read back, not made again: the same bytes, the file untouched.
            let inode = try FileManager.default.attributesOfItem(atPath: kept.path)[.systemFileNumber] as? Int
            #expect(try await library.thumbnail(forAssetWithID: saved.assetID)?.data == thumbnail.data)
            #expect(try FileManager.default.attributesOfItem(atPath: kept.path)[.systemFileNumber] as? Int == inode)

            // Damaged, or forged into something that is no picture: made again, never an error of verify.
            for forged in [Data(thumbnail.data.prefix(thumbnail.data.count / 2)), Data("not a picture".utf8)] {
                try forged.write(to: kept)
                #expect(try await library.verify().isHealthy)
                let again = try #require(try await library.thumbnail(forAssetWithID: saved.assetID))
                #expect((again.pixelWidth, again.pixelHeight) == (192, 256))
                #expect(try Data(contentsOf: kept) == again.data)
            }
            // A smaller size is scaled from the kept one; the preview is its own size.
            let small = try #require(try await library.thumbnail(forAssetWithID: saved.assetID, maxPixelSize: 100))
            #expect((small.pixelWidth, small.pixelHeight) == (75, 100))
            let preview = try #require(try await library.preview(forAssetWithID: saved.assetID))
            #expect((preview.pixelWidth, preview.pixelHeight) == (1536, 2048))
            #expect(try await library.verify().isHealthy)
        }
    }

    @Test func previewsAreBuiltOnceForTheWholeLibrary() async throws {
        try ExternalTool.requireLibvips()
        try ExternalTool.requireFFmpegLibraries()
        try await Fixture.withTemporaryDirectory { folder in
            let library = try PhotoLibrary.catalog(at: folder.appendingPathComponent("Photos.albumlibrary"))
            let album = library.album(titled: "Trips")
            let results = await album.save([
                .file(try Self.turnedPhoto(in: folder)), .file(Fixture.png), .file(Fixture.heic), .file(Fixture.video),
            ])
            #expect(results.allSatisfy { (try? $0.get()) != nil })  // every file saves
            let assets = try await library.assets(inAlbumTitled: "Trips")
            let first = try await library.buildPreviews(of: assets)
            // Three sizes of each, the video's poster frame among them.
            #expect(first.made == 12 && first.reused == 0 && first.videos == 1, "\(first.failures.map(\.reason))")
            let second = try await library.buildPreviews(of: assets)
            #expect(second.made == 0 && second.reused == 12 && second.failures.isEmpty)
        }
    }

    @Test func aFolderLibraryUsesTheDesktopsThumbnailCache() async throws {
        try ExternalTool.requireLibvips()
        let cacheHome = Fixture.thumbnailCacheHome
        try await Fixture.withTemporaryDirectory { folder in
            let pictures = folder.appendingPathComponent("Pictures")
            try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
            let library = try PhotoLibrary.folders(at: pictures)
            let saved = try await library.album(titled: "Trips").save(.file(try Self.turnedPhoto(in: folder)))
            let thumbnail = try #require(try await library.thumbnail(forAssetWithID: saved.assetID))
            #expect((thumbnail.pixelWidth, thumbnail.pixelHeight) == (192, 256) && thumbnail.format == .png)

            // Named by the MD5 of the file's URI (as GLib writes it), with the standard's chunks.
            let file = try #require(try await library.assets(inAlbumTitled: "Trips").first?.fileURL)
            let uri = "file://" + file.path.replacingOccurrences(of: " ", with: "%20")
            let md5 = try ExternalTool.python(
                "import hashlib, sys\nprint(hashlib.md5(sys.argv[1].encode()).hexdigest())", modules: [],
                arguments: [uri]
            ).trimmingCharacters(in: .whitespacesAndNewlines)
            let entry = cacheHome.appendingPathComponent("thumbnails/large/\(md5).png")
            let text = try Self.pngText(entry)
            let modified = try #require(
                try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date)
            #expect(text["Thumb::URI"] == uri)
            #expect(text["Thumb::MTime"] == String(Int(modified.timeIntervalSince1970)))
            #expect(try Data(contentsOf: entry) == thumbnail.data)

            // A file manager's entry, current, is used as it is (here a 100-pixel one of its own).
            try ExternalTool.python(
                """
                import sys
                from PIL import Image, PngImagePlugin
                info = PngImagePlugin.PngInfo()
                info.add_text('Thumb::URI', sys.argv[2]); info.add_text('Thumb::MTime', sys.argv[3])
                Image.new('RGB', (75, 100), (1, 2, 3)).save(sys.argv[1], pnginfo=info)
                """, modules: ["PIL"], arguments: [entry.path, uri, text["Thumb::MTime"] ?? ""])
            let theirs = try #require(try await library.thumbnail(forAssetWithID: saved.assetID))
            #expect((theirs.pixelWidth, theirs.pixelHeight) == (75, 100))

            // One whose time is not the file's is stale: made again.
            try FileManager.default.setAttributes(
                [.modificationDate: modified.addingTimeInterval(-3600)], ofItemAtPath: file.path)
            let remade = try #require(try await library.thumbnail(forAssetWithID: saved.assetID))
            #expect((remade.pixelWidth, remade.pixelHeight) == (192, 256))
            #expect(try Self.pngText(entry)["Thumb::MTime"] == String(Int(modified.timeIntervalSince1970) - 3600))
        }
    }

    @Test func aJPEGsMPFPreviewIsTheSourceWhenBigEnough() async throws {
        try ExternalTool.requireLibvips()
        try await Fixture.withTemporaryDirectory { folder in
            // A red 4000 × 3000 photo storing a blue 1024 × 768 preview in its MPF segment (as cameras do).
            let photo = folder.appendingPathComponent("mpf.jpg")
            try ExternalTool.python(
                """
                import sys
                from PIL import Image
                photo = Image.new('RGB', (4000, 3000), (220, 20, 20))
                photo.save(sys.argv[1], format='MPO', save_all=True, append_images=[Image.new('RGB', (1024, 768), (20, 20, 220))])
                """, modules: ["PIL"], arguments: [photo.path])
            let library = PhotoLibrary.inMemory()
            let saved = try await library.album(titled: "MPF").save(.file(photo))
            let colour = { (thumbnail: AssetThumbnail) throws -> [Int] in
                let file = folder.appendingPathComponent("thumb-\(thumbnail.pixelWidth).jpg")
                try thumbnail.data.write(to: file)
                return try ExternalTool.python(
                    "import sys\nfrom PIL import Image\nprint(*Image.open(sys.argv[1]).convert('RGB').getpixel((5, 5)))",
                    modules: ["PIL"], arguments: [file.path]
                ).split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            }
            // 512 fits in the stored 1024: made from it (blue); 2048 does not: made from the photo (red).
            let small = try #require(try await library.thumbnail(forAssetWithID: saved.assetID, maxPixelSize: 512))
            #expect((small.pixelWidth, small.pixelHeight) == (512, 384))
            let blue = try colour(small)
            #expect(blue.count == 3 && blue[2] > 150 && blue[0] < 80, "\(blue)")
            let large = try #require(try await library.preview(forAssetWithID: saved.assetID))
            #expect((large.pixelWidth, large.pixelHeight) == (2048, 1536))
            let red = try colour(large)
            #expect(red.count == 3 && red[0] > 150 && red[2] < 80, "\(red)")
        }
    }

    @Test func theInMemoryLibraryRendersRealThumbnails() async throws {
        try ExternalTool.requireLibvips()
        try ExternalTool.requireFFmpegLibraries()
        let library = PhotoLibrary.inMemory()
        let album = library.album(titled: "Grid")
        let photo = try await album.save(.file(Fixture.jpeg))
        let heic = try await album.save(.file(Fixture.heic))
        let video = try await album.save(.file(Fixture.video))
        for id in [photo.assetID, heic.assetID] {
            let thumbnail = try #require(try await library.thumbnail(forAssetWithID: id, maxPixelSize: 128))
            #expect(max(thumbnail.pixelWidth, thumbnail.pixelHeight) <= 128 && thumbnail.format == .jpeg)
            #expect(Array(thumbnail.data.prefix(2)) == [0xFF, 0xD8])
        }
        // A video's poster frame, from the bytes the library holds (the clip is 160 × 120).
        let poster = try #require(try await library.thumbnail(forAssetWithID: video.assetID, maxPixelSize: 128))
        #expect((poster.pixelWidth, poster.pixelHeight) == (128, 96) && poster.format == .jpeg)
    }

    @Test func aRawWithoutAPreviewIsDevelopedFromTheFileAndFromTheBytesHeld() async throws {
        try ExternalTool.requireLibvips()
        let handle = dlopen("libraw_r.so.20", RTLD_LAZY | RTLD_LOCAL)
        if let handle { dlclose(handle) }
        try ExternalTool.requireAvailable(handle != nil, "LibRaw", install: "apt-get install libraw20")
        try await Fixture.withTemporaryDirectory { folder in
            let raw = folder.appendingPathComponent("DSC_0006.dng")
            try Data(MosaicDNG(width: 640, height: 480, orientation: 6).bytes()).write(to: raw)
            // The catalog reads its original through an open file; the in-memory library from its bytes.
            let catalog = try PhotoLibrary.catalog(at: folder.appendingPathComponent("Photos.albumlibrary"))
            let inMemory = PhotoLibrary.inMemory()
            for library in [catalog, inMemory] {
                let saved = try await library.album(titled: "Raw").save(.file(raw))
                let thumbnail = try #require(try await library.thumbnail(forAssetWithID: saved.assetID))
                // Half size (320 × 240) is big enough for 256, turned upright.
                #expect((thumbnail.pixelWidth, thumbnail.pixelHeight) == (192, 256) && thumbnail.format == .jpeg)
                #expect(!thumbnail.isEmbedded)
                // A preview is never enlarged: the whole sensor, 640 × 480, upright.
                let preview = try #require(try await library.preview(forAssetWithID: saved.assetID))
                #expect((preview.pixelWidth, preview.pixelHeight) == (480, 640))
            }
        }
    }
}
