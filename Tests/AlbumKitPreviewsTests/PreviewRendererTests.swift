import AlbumKitMedia
import AlbumKitPreviews
import AlbumTestSupport
import Foundation
import Testing

/// libvips through `PreviewRenderer`, against Pillow, pillow-heif and `vipsthumbnail` as oracles.
@Suite(.onThreadsOfTheirOwn) struct PreviewRendererTests {
    /// Loading libvips turns its generated vector code (Orc) off: with several pictures decoded at
    /// once, Orc's code crashed `album duplicates` once in CI.
    @Test func libvipsRunsNoGeneratedVectorCode() throws {
        let renderer = try PreviewFixture.renderer()
        #expect(!renderer.runsGeneratedVectorCode)
    }

    @Test func aThumbnailOfARotatedJPEGIsPortraitAsVipsthumbnailMakesIt() throws {
        let fixture = try PreviewFixture()
        try fixture.pillow(
            """
            from PIL import Image
            exif = Image.Exif(); exif[0x0112] = 6
            Image.new('RGB', (4000, 3000), (200, 30, 40)).save('turned.jpg', exif=exif, quality=90)
            """)
        let thumbnail = try fixture.render("turned.jpg", maxPixelSize: 256)
        #expect(thumbnail.format == .jpeg)
        #expect((thumbnail.pixelWidth, thumbnail.pixelHeight) == (192, 256))
        #expect(try fixture.pillowReading(thumbnail, as: "out.jpg") == "192 256 RGB noicc")

        let vipsthumbnail = try ExternalTool.require("vipsthumbnail")
        let process = try Process.run(
            URL(fileURLWithPath: vipsthumbnail),
            arguments: ["-s", "256", "-o", "oracle.jpg", fixture.path("turned.jpg")])
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let oracle = try fixture.pillow("from PIL import Image\nprint(*Image.open('oracle.jpg').size)")
        #expect(oracle.trimmingCharacters(in: .whitespacesAndNewlines) == "192 256")
    }

    @Test func aPictureIsNeverEnlarged() throws {
        let fixture = try PreviewFixture()
        try fixture.pillow("from PIL import Image\nImage.new('RGB', (100, 50), (1, 2, 3)).save('small.png')")
        let thumbnail = try fixture.render("small.png", maxPixelSize: 256)
        #expect((thumbnail.pixelWidth, thumbnail.pixelHeight) == (100, 50))
    }

    @Test func aCMYKJPEGComesOutAsSRGB() throws {
        let fixture = try PreviewFixture()
        // Magenta and yellow full, no cyan or black: a red.
        try fixture.pillow("from PIL import Image\nImage.new('CMYK', (640, 480), (0, 255, 255, 0)).save('cmyk.jpg')")
        let thumbnail = try fixture.render("cmyk.jpg", maxPixelSize: 256)
        let read = try fixture.pillowReading(thumbnail, as: "out.jpg", pixel: (10, 10)).split(separator: "\n")
        #expect(read.first == "256 192 RGB noicc")
        let rgb = read.last?.split(separator: " ").compactMap { Int($0) } ?? []
        #expect(rgb.count == 3 && rgb[0] > 180 && rgb[1] < 90 && rgb[2] < 90, "a red, not \(rgb)")
    }

    @Test func aWideGamutJPEGIsConvertedThroughItsProfileAsPillowConvertsIt() throws {
        try ExternalTool.requireLibvips()
        let fixture = try PreviewFixture()
        // libvips's own Display P3 profile, attached by Pillow to pixels meant in P3.
        try fixture.pillow("from PIL import Image\nImage.new('RGB', (64, 64), (128, 128, 128)).save('grey.jpg')")
        let vips = try ExternalTool.require("vips")
        let process = try Process.run(
            URL(fileURLWithPath: vips),
            arguments: ["icc_transform", fixture.path("grey.jpg"), fixture.path("p3.jpg"), "p3"])
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let expected = try fixture.pillow(
            """
            from PIL import Image, ImageCms
            import io
            profile = Image.open('p3.jpg').info['icc_profile']
            Image.new('RGB', (800, 600), (40, 200, 60)).save('wide.jpg', icc_profile=profile, quality=95)
            p3 = ImageCms.ImageCmsProfile(io.BytesIO(profile))
            srgb = ImageCms.createProfile('sRGB')
            print(*ImageCms.profileToProfile(Image.new('RGB', (1, 1), (40, 200, 60)), p3, srgb).getpixel((0, 0)))
            """
        ).split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        let thumbnail = try fixture.render("wide.jpg", maxPixelSize: 256)
        let read = try fixture.pillowReading(thumbnail, as: "out.jpg", pixel: (20, 20)).split(separator: "\n")
        let rgb = read.last?.split(separator: " ").compactMap { Int($0) } ?? []
        #expect(expected.count == 3 && rgb.count == 3)
        // The P3 numbers themselves (40, 200, 60) differ from their sRGB rendering by far more.
        #expect(zip(rgb, expected).allSatisfy { abs($0 - $1) <= 6 }, "\(rgb) against Pillow's \(expected)")
        #expect(zip(rgb, [40, 200, 60]).contains { abs($0 - $1) > 10 }, "the profile was not applied: \(rgb)")
    }

    @Test func aHEICMadeByPillowHEIFIsRendered() throws {
        let fixture = try PreviewFixture()
        try fixture.pillow(
            """
            from PIL import Image
            import pillow_heif
            pillow_heif.register_heif_opener()
            Image.new('RGB', (1200, 800), (10, 200, 40)).save('photo.heic', quality=80)
            """, modules: ["PIL", "pillow_heif"])
        let thumbnail = try fixture.render("photo.heic", maxPixelSize: 256)
        #expect((thumbnail.pixelWidth, thumbnail.pixelHeight) == (256, 171))
        let read = try fixture.pillowReading(thumbnail, as: "out.jpg", pixel: (5, 5)).split(separator: "\n")
        let rgb = read.last?.split(separator: " ").compactMap { Int($0) } ?? []
        #expect(rgb.count == 3 && abs(rgb[1] - 200) < 12 && rgb[0] < 40, "green, not \(rgb)")
    }

    @Test func aTransparentPNGIsFlattenedOnWhite() throws {
        let fixture = try PreviewFixture()
        try fixture.pillow("from PIL import Image\nImage.new('RGBA', (300, 200), (0, 0, 255, 0)).save('clear.png')")
        let thumbnail = try fixture.render("clear.png", maxPixelSize: 128)
        #expect(try fixture.pillowReading(thumbnail, as: "out.jpg", pixel: (5, 5)) == "128 85 RGB noicc\n255 255 255")
    }

    @Test func aDamagedJPEGIsAnErrorNotACrash() throws {
        try ExternalTool.requireLibvips()
        let fixture = try PreviewFixture()
        try fixture.pillow(
            """
            from PIL import Image
            Image.new('RGB', (640, 480), (9, 9, 9)).save('whole.jpg')
            data = open('whole.jpg', 'rb').read()
            # The frame header's height and width zeroed: no decoder can lay out the scan.
            start = data.index(b'\\xff\\xc0')
            open('damaged.jpg', 'wb').write(data[:start + 5] + b'\\0\\0\\0\\0' + data[start + 9:])
            open('notapicture.jpg', 'wb').write(b'hello, this is text')
            """)
        for name in ["damaged.jpg", "notapicture.jpg"] {
            #expect {
                try fixture.render(name, maxPixelSize: 256)
            } throws: { error in
                (error as? PreviewError)?.kind == .undecodable
            }
        }
        #expect(throws: PreviewError.self) {
            try PreviewFixture.renderer().render(.bytes([]), maxPixelSize: 256)
        }
    }

    @Test func aCutShortJPEGIsShownUnlessStrict() throws {
        let fixture = try PreviewFixture()
        try fixture.pillow(
            """
            from PIL import Image
            Image.effect_noise((800, 600), 60).convert('RGB').save('whole.jpg', quality=95)
            data = open('whole.jpg', 'rb').read()
            open('cut.jpg', 'wb').write(data[:len(data) // 2])
            """)
        let shown = try fixture.render("cut.jpg", maxPixelSize: 200)
        #expect((shown.pixelWidth, shown.pixelHeight) == (200, 150))
        #expect { try fixture.render("cut.jpg", maxPixelSize: 200, strict: true) } throws: { error in
            (error as? PreviewError)?.kind == .undecodable
        }
    }

    @Test func aStoredThumbnailIsTurnedAsThePhotoSays() throws {
        let renderer = try PreviewFixture.renderer()
        let fixture = try PreviewFixture()
        try fixture.pillow("from PIL import Image\nImage.new('RGB', (160, 120), (50, 60, 70)).save('stored.jpg')")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture.path("stored.jpg"))))
        let upright = try renderer.render(.bytes(bytes), maxPixelSize: 256, orientation: 6)
        #expect((upright.pixelWidth, upright.pixelHeight) == (120, 160))
        let asStored = try renderer.render(.bytes(bytes), maxPixelSize: 80)
        #expect((asStored.pixelWidth, asStored.pixelHeight) == (80, 60))
    }

    @Test func aPNGKeepsTheTextChunksAFreedesktopReaderLooksFor() throws {
        let fixture = try PreviewFixture()
        try fixture.pillow("from PIL import Image\nImage.new('RGB', (1000, 500), (1, 2, 3)).save('photo.png')")
        let entry = try fixture.render(
            "photo.png", maxPixelSize: 256,
            encoding: .png(text: [
                "Thumb::URI": "file:///home/a/Pictures/photo%20one.png", "Thumb::MTime": "1700000000",
            ]))
        #expect(entry.format == .png)
        try Data(entry.bytes).write(to: URL(fileURLWithPath: fixture.path("entry.png")))
        let read = try fixture.pillow(
            "from PIL import Image\nim = Image.open('entry.png')\nprint(im.size, im.mode, sorted(im.text.items()))")
        #expect(
            read.trimmingCharacters(in: .whitespacesAndNewlines)
                == "(256, 128) RGB [('Thumb::MTime', '1700000000'), ('Thumb::URI', 'file:///home/a/Pictures/photo%20one.png')]"
        )
    }

    @Test func aGreyGridFollowsPillowsReduction() throws {
        let fixture = try PreviewFixture()
        let oracle = try fixture.pillow(
            """
            from PIL import Image
            im = Image.linear_gradient('L').rotate(90).resize((900, 800)).convert('RGB')
            im.save('gradient.png')
            grid = Image.open('gradient.png').convert('L').resize((9, 8), Image.LANCZOS)
            print(*grid.getdata())
            """
        ).split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        let renderer = try PreviewFixture.renderer()
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: fixture.path("gradient.png")))
        defer { try? handle.close() }  // read-only: closing cannot lose anything
        let grid = try renderer.greyscale(.descriptor(handle.fileDescriptor), width: 9, height: 8)
        #expect(grid.samples.count == 72 && oracle.count == 72)
        // The two reductions differ at the picture's edges (how each filter meets the border), by
        // little on average.
        let differences = zip(grid.samples, oracle).map { abs(Int($0) - $1) }
        #expect(differences.reduce(0, +) <= 6 * 72, "\(grid.samples) against Pillow's \(oracle)")
        // The dHash bits (left brighter than right along each row) are Pillow's.
        let bits = (0..<8).flatMap { y in (0..<8).map { x in grid[x, y] > grid[x + 1, y] } }
        let oracleBits = (0..<8).flatMap { y in (0..<8).map { x in oracle[y * 9 + x] > oracle[y * 9 + x + 1] } }
        #expect(bits == oracleBits)
    }

    @Test func aContactSheetLaysThumbnailsOutInRows() throws {
        let renderer = try PreviewFixture.renderer()
        let fixture = try PreviewFixture()
        try fixture.pillow(
            """
            from PIL import Image
            for n, size in enumerate([(400, 300), (300, 400), (500, 500)]):
                Image.new('RGB', size, (40 * n, 100, 200)).save(f'{n}.jpg')
            Image.new('L', (640, 480), 90).save('3.jpg')
            """)
        let thumbnails = try (0..<4).map { try fixture.render("\($0).jpg", maxPixelSize: 128) }
        let sheet = try renderer.contactSheet(thumbnails, cellSize: 100, across: 3, gap: 10)
        #expect((sheet.pixelWidth, sheet.pixelHeight) == (3 * 100 + 2 * 10, 2 * 100 + 10))
        #expect(try fixture.pillowReading(sheet, as: "sheet.jpg").hasPrefix("320 210 RGB"))
    }

    @Test func sizesOutOfRangeAreRefused() throws {
        let renderer = try PreviewFixture.renderer()
        for size in [0, -1, PreviewRenderer.largestSide + 1] {
            #expect { try renderer.render(.bytes([0xFF]), maxPixelSize: size) } throws: { error in
                (error as? PreviewError)?.kind == .invalidArgument
            }
        }
        #expect(throws: PreviewError.self) { try renderer.greyscale(.bytes([0xFF]), width: 0, height: 8) }
    }
}
