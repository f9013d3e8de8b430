import AlbumTestSupport
import Foundation
import Testing

import AlbumKitPreviews

@testable import AlbumKitCore

/// The perceptual hashes against PyPI's `imagehash`, on the very pixels `imagehash` hashes.
@Suite struct PerceptualHashTests {
    /// Makes varied pictures with Pillow (gradients, shapes, noise, text, ImageMagick-free photos of
    /// drawn scenes), reduces each to grayscale 9 × 8 and 32 × 32 with Pillow's Lanczos filter as
    /// `imagehash` does, and prints both buffers with `str(imagehash.dhash(image))` and
    /// `str(imagehash.phash(image))`.
    static let oracle = #"""
        import json, random, sys
        from PIL import Image, ImageDraw, ImageFilter
        import imagehash
        random.seed(int(sys.argv[1]))
        def picture(number):
            width, height = random.choice([(640, 480), (480, 640), (300, 300), (1024, 576)])
            kind = number % 5
            if kind == 0:
                image = Image.linear_gradient("L").resize((width, height)).convert("RGB")
                image = image.rotate(random.uniform(0, 360), expand=False)
            elif kind == 1:
                image = Image.new("RGB", (width, height), tuple(random.randrange(256) for _ in range(3)))
            elif kind == 2:
                image = Image.effect_noise((width, height), random.uniform(10, 90)).convert("RGB")
            elif kind == 3:
                image = Image.radial_gradient("L").resize((width, height)).convert("RGB")
            else:
                image = Image.new("RGB", (width, height), (20, 30, 40))
            draw = ImageDraw.Draw(image)
            for _ in range(random.randrange(2, 12)):
                x0, y0 = random.randrange(width), random.randrange(height)
                x1, y1 = x0 + random.randrange(10, width), y0 + random.randrange(10, height)
                colour = tuple(random.randrange(256) for _ in range(3))
                shape = random.choice(["rectangle", "ellipse", "line"])
                if shape == "line":
                    draw.line([x0, y0, x1, y1], fill=colour, width=random.randrange(1, 20))
                else:
                    getattr(draw, shape)([x0, y0, x1, y1], fill=colour)
            draw.text((random.randrange(width // 2), random.randrange(height // 2)), "AlbumKit %d" % number, fill=(255, 255, 255))
            if random.random() < 0.3:
                image = image.filter(ImageFilter.GaussianBlur(random.uniform(0.5, 4)))
            return image
        rows = []
        for number in range(int(sys.argv[2])):
            image = picture(number)
            gray = image.convert("L")
            rows.append({
                "small": list(gray.resize((9, 8), Image.LANCZOS).getdata()),
                "large": list(gray.resize((32, 32), Image.LANCZOS).getdata()),
                "dhash": str(imagehash.dhash(image)),
                "phash": str(imagehash.phash(image)),
            })
        print(json.dumps(rows))
        """#

    struct Row: Decodable {
        var small: [UInt8]
        var large: [UInt8]
        var dhash: String
        var phash: String
    }

    @Test func hashesMatchImagehashBitForBitOnTheSamePixels() throws {
        // Given 200 varied pictures reduced by Pillow, and imagehash's hashes of them.
        let output = try ExternalTool.python(Self.oracle, modules: ["PIL", "imagehash"], arguments: ["44", "200"])
        let rows = try JSONDecoder().decode([Row].self, from: Data(output.utf8))
        #expect(rows.count == 200)
        var differentBits = (difference: 0, perceptual: 0)
        for row in rows {
            // When AlbumKit hashes the same reduced pixels.
            let hash = PerceptualHash(
                differenceOf: try GrayscaleImage(width: 9, height: 8, pixels: row.small),
                perceptualOf: try GrayscaleImage(width: 32, height: 32, pixels: row.large))
            let oracle = try #require(PerceptualHash(hexadecimal: row.dhash + ":" + row.phash))
            // Then the hashes are imagehash's, bit for bit.
            #expect(PerceptualHash.hex(hash.difference) == row.dhash)
            #expect(PerceptualHash.hex(hash.perceptual) == row.phash)
            differentBits.difference += hash.distance(to: oracle).difference
            differentBits.perceptual += hash.distance(to: oracle).perceptual
        }
        #expect(differentBits.difference == 0 && differentBits.perceptual == 0)
    }

    @Test func hexadecimalFormRoundTripsAndRefusesOtherText() throws {
        let hash = PerceptualHash(difference: 0x0123_4567_89ab_cdef, perceptual: 0xfeed_0000_0000_0001)
        #expect(hash.hexadecimal == "0123456789abcdef:feed000000000001")
        #expect(PerceptualHash(hexadecimal: hash.hexadecimal) == hash)
        #expect(PerceptualHash(hexadecimal: "0123456789abcdef") == nil)
        #expect(PerceptualHash(hexadecimal: "0123456789abcdeg:feed000000000001") == nil)
        #expect(PerceptualHash(hexadecimal: "123456789abcdef:feed000000000001") == nil)
    }

    @Test func differenceHashSetsABitWhereThePixelOnTheRightIsBrighter() throws {
        // A ramp brightening to the right sets every bit; darkening sets none.
        let rising = try GrayscaleImage(width: 9, height: 8, pixels: (0..<72).map { UInt8(($0 % 9) * 20) })
        let falling = try GrayscaleImage(width: 9, height: 8, pixels: (0..<72).map { UInt8(200 - ($0 % 9) * 20) })
        #expect(PerceptualHash.differenceHash(rising) == .max)
        #expect(PerceptualHash.differenceHash(falling) == 0)
    }

    @Test func areaAveragingKeepsTheMeanAndRefusesAWrongPixelCount() throws {
        let image = try GrayscaleImage(width: 4, height: 2, pixels: [0, 100, 200, 255, 10, 20, 30, 40])
        let halved = image.resized(width: 2, height: 1)
        #expect(halved.pixels == [33, 131])  // (0+100+10+20)/4 = 32.5, (200+255+30+40)/4 = 131.25
        #expect(image.resized(width: 4, height: 2) == image)
        #expect(throws: AlbumError.self) { try GrayscaleImage(width: 3, height: 3, pixels: [1, 2, 3]) }
    }
}

/// End to end on files: AlbumKit's hashes of a file (thumbnail by libvips, grey grids by libvips)
/// against `imagehash` of the same file opened by Pillow. The grey conversions differ (libvips's
/// B_W against Pillow's Rec. 601 luma) and so do the reductions (from the 256-pixel thumbnail with
/// libvips against Lanczos from full size with Pillow): the hashes are not interchangeable with
/// imagehash's, and the distances are documented (Docs/duplicates.md).
@Suite struct PerceptualHashFileTests {
    static let files = #"""
        import json, random, sys
        from PIL import Image, ImageDraw, ImageFilter
        import imagehash
        random.seed(9)
        rows = []
        for number in range(int(sys.argv[2])):
            w, h = random.choice([(1200, 900), (900, 1200), (640, 640)])
            kind = number % 3
            if kind == 0: image = Image.linear_gradient("L").resize((w, h)).convert("RGB").rotate(random.uniform(0, 360))
            elif kind == 1: image = Image.effect_noise((w, h), random.uniform(20, 80)).convert("RGB")
            else: image = Image.new("RGB", (w, h), tuple(random.randrange(256) for _ in range(3)))
            draw = ImageDraw.Draw(image)
            for _ in range(random.randrange(3, 10)):
                x0, y0 = random.randrange(w), random.randrange(h)
                box = [x0, y0, x0 + random.randrange(30, w // 2), y0 + random.randrange(30, h // 2)]
                getattr(draw, random.choice(["rectangle", "ellipse"]))(box, fill=tuple(random.randrange(256) for _ in range(3)))
            path = "%s/%d.%s" % (sys.argv[1], number, "png" if number % 4 == 0 else "jpg")
            image.save(path)
            opened = Image.open(path)
            rows.append({"path": path, "dhash": str(imagehash.dhash(opened)), "phash": str(imagehash.phash(opened))})
        print(json.dumps(rows))
        """#

    struct Row: Decodable {
        var path: String
        var dhash: String
        var phash: String
    }

    /// About 10 s: 48 pictures made by Pillow and decoded twice.
    @Test func fileHashesStayWithinTheMeasuredDistanceOfImagehash() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hash-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer {
            // try?: the test's own temporary folder; nothing depends on its removal.
            try? FileManager.default.removeItem(at: folder)
        }
        let output = try ExternalTool.python(
            Self.files, modules: ["PIL", "imagehash"], arguments: [folder.path, "48"])
        let rows = try JSONDecoder().decode([Row].self, from: Data(output.utf8))
        let renderer: PreviewRenderer
        do { renderer = try PreviewRenderer.load() } catch {
            // Skipped outside CI where libvips42 is missing, failed in CI (as the preview tests).
            if ExternalTool.inCI { throw error }
            TestRunReport.shared.skipped("test", because: error.reason)
            try Test.cancel("skipped: \(error.reason); CI runs it")
        }
        var perceptual: [Int] = []
        var difference: [Int] = []
        for row in rows {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: row.path)))
            let ours = try DuplicateSearch.hash(ofPicture: bytes, name: row.path, renderer: renderer)
            let theirs = try #require(PerceptualHash(hexadecimal: row.dhash + ":" + row.phash))
            perceptual.append(ours.distance(to: theirs).perceptual)
            difference.append(ours.distance(to: theirs).difference)
        }
        let meanP = Double(perceptual.reduce(0, +)) / Double(perceptual.count)
        let meanD = Double(difference.reduce(0, +)) / Double(difference.count)
        print(
            "against imagehash on \(rows.count) files: pHash mean \(meanP) max \(perceptual.max() ?? 0) bits; dHash mean \(meanD) max \(difference.max() ?? 0) bits"
        )
        // Measured on 48 files: pHash 3.6 bits apart on average (at most 10), dHash 6.4 (at most 30, on
        // flat pictures whose neighbouring grey pixels tie). The bounds below keep that from growing.
        #expect(meanP <= 8, "\(perceptual)")
        #expect(meanD <= 12, "\(difference)")
    }
}
