import AlbumKitPreviews
import AlbumTestSupport
import Foundation
import Testing

/// AlbumKit's own BMP decoder against Pillow's: every kind of bitmap written byte by byte by the
/// script below (headers of every size, palettes of 1 to 8 bits, RLE8 and RLE4 with deltas and
/// absolute runs, 16, 24 and 32 bits with and without masks, top-down rows), decoded by both and
/// compared pixel by pixel; hostile headers give a reason, never a crash.
@Suite struct BMPDecoderTests {
    /// Writes bitmaps into the current folder, one per variant, and prints for each its name and
    /// Pillow's decode: mode, size and its RGB (or RGBA) bytes in hexadecimal.
    static let writer = #"""
        import struct
        from PIL import Image

        def bmp(name, width, height, bits, rows, palette=b"", header=40, compression=0, masks=b"",
                top_down=False, colours=0, offset=None, v4masks=None):
            if header == 12:
                info = struct.pack("<IHHHH", 12, width, height, 1, bits)
            else:
                info = struct.pack("<IiiHHIIiiII", header, width, -height if top_down else height, 1, bits,
                                   compression, len(rows), 2835, 2835, colours, 0)
                if v4masks is not None:
                    info += struct.pack("<IIII", *v4masks)
                info += b"\0" * (header - len(info))
            start = 14 + len(info) + len(masks) + len(palette)
            data = info + masks + palette + rows
            head = b"BM" + struct.pack("<IHHI", 14 + len(data), 0, 0, start if offset is None else offset)
            open(name, "wb").write(head + data)

        def packed(width, height, bits, pixel):
            stride = (width * bits + 31) // 32 * 4
            out = b""
            for y in range(height):
                row = 0
                for x in range(width):
                    row = (row << bits) | pixel(x, y)
                total = width * bits
                row <<= (-total) % 8
                raw = row.to_bytes((total + 7) // 8, "big") if total else b""
                out += raw + b"\0" * (stride - len(raw))
            return out

        def wide(width, height, bits, pixel):
            stride = (width * bits + 31) // 32 * 4
            out = b""
            for y in range(height):
                raw = b"".join(pixel(x, y).to_bytes(bits // 8, "little") for x in range(width))
                out += raw + b"\0" * (stride - len(raw))
            return out

        def colours(count, entry=4):
            return b"".join(bytes([(i * 37) % 256, (i * 91 + 20) % 256, (255 - i * 13) % 256])
                            + (b"\0" if entry == 4 else b"") for i in range(count))

        W, H = 13, 7
        bmp("pal1.bmp", W, H, 1, packed(W, H, 1, lambda x, y: (x + y) % 2), colours(2))
        bmp("pal2.bmp", W, H, 2, packed(W, H, 2, lambda x, y: (x * y) % 4), colours(4))
        bmp("pal4.bmp", W, H, 4, packed(W, H, 4, lambda x, y: (x + 3 * y) % 16), colours(16))
        bmp("pal8.bmp", W, H, 8, packed(W, H, 8, lambda x, y: (x * 7 + y * 11) % 256), colours(256))
        bmp("pal8few.bmp", W, H, 8, packed(W, H, 8, lambda x, y: (x + y) % 5), colours(5), colours=5)
        bmp("pal8grey.bmp", W, H, 8, packed(W, H, 8, lambda x, y: x * 19 + y),
            b"".join(bytes([i, i, i, 0]) for i in range(256)))
        bmp("pal8topdown.bmp", W, H, 8, packed(W, H, 8, lambda x, y: x * 9 + y), colours(256), top_down=True)
        bmp("pal8os2.bmp", W, H, 8, packed(W, H, 8, lambda x, y: x + y * 13), colours(256, 3), header=12)
        bmp("pal4os2v2.bmp", W, H, 4, packed(W, H, 4, lambda x, y: (x ^ y) % 16), colours(16), header=64)
        bmp("pal8v5.bmp", W, H, 8, packed(W, H, 8, lambda x, y: x * y), colours(256), header=124)
        bmp("pal8offset.bmp", W, H, 8, packed(W, H, 8, lambda x, y: x + y), colours(256), offset=54)
        bmp("rgb16.bmp", W, H, 16, wide(W, H, 16, lambda x, y: (x * 2 << 10) | (y * 4 << 5) | (x + y)))
        bmp("rgb16-565.bmp", W, H, 16, wide(W, H, 16, lambda x, y: (x * 2 << 11) | (y * 9 << 5) | (31 - x)),
            compression=3, masks=struct.pack("<III", 0xF800, 0x07E0, 0x001F))
        bmp("rgb24.bmp", W, H, 24, wide(W, H, 24, lambda x, y: (x * 19) | (y * 36) << 8 | ((x * y) % 256) << 16))
        bmp("rgb24topdown.bmp", W, H, 24, wide(W, H, 24, lambda x, y: (x * 19) << 8 | y * 30), top_down=True)
        bmp("rgb32.bmp", W, H, 32, wide(W, H, 32, lambda x, y: 0x7F000000 | (x * 19) << 16 | y * 36 << 8 | 99))
        bmp("rgb32bf.bmp", W, H, 32, wide(W, H, 32, lambda x, y: (x * 19) << 24 | (y * 36) << 16 | 77 << 8),
            compression=3, masks=struct.pack("<III", 0xFF000000, 0xFF0000, 0xFF00))
        bmp("rgba32v4.bmp", W, H, 32, wide(W, H, 32, lambda x, y: (x * 19) << 24 | (y * 36) << 16 | 200 << 8 | x * 20),
            header=108, compression=3, v4masks=(0xFF0000, 0xFF00, 0xFF, 0xFF000000))
        bmp("rgba32v5.bmp", W, H, 32, wide(W, H, 32, lambda x, y: (x * 19) << 0 | (y * 36) << 8 | 50 << 16 | (y * 30) << 24),
            header=124, compression=3, v4masks=(0xFF, 0xFF00, 0xFF0000, 0xFF000000))
        # RLE8 and RLE4: runs, absolute runs of odd length (padded to an even offset), a delta, ends
        # of line and the end of the bitmap.
        rle8 = (bytes([5, 1, 0, 3, 7, 8, 9, 0, 3, 2]) + bytes([0, 0])
                + bytes([13, 4]) + bytes([0, 0])
                + bytes([2, 6, 0, 2, 3, 1, 4, 7]) + bytes([0, 0])
                + bytes([0, 5, 1, 2, 3, 4, 5, 0, 8, 9]) + bytes([0, 0])
                + bytes([13, 10, 0, 0, 13, 11]) + bytes([0, 1]))
        bmp("rle8.bmp", W, H, 8, rle8, colours(256), compression=1)
        bmp("rle8topdown.bmp", W, H, 8, rle8, colours(256), compression=1, top_down=True)
        rle4 = (bytes([5, 0x12, 0, 3, 0x34, 0x50, 4, 0xAB]) + bytes([0, 0])
                + bytes([0, 2, 1, 1, 6, 0xCD]) + bytes([0, 0])
                + bytes([13, 0xEF]) + bytes([0, 0])
                + bytes([13, 0x21, 0, 0, 13, 0x43, 0, 0])
                + bytes([7, 0x65, 0, 5, 0x12, 0x34, 0x50, 0]) + bytes([0, 0]) + bytes([0, 1]))
        bmp("rle4.bmp", W, H, 4, rle4, colours(16), compression=2)
        for name in ["pal1", "pal2", "pal4", "pal8", "pal8few", "pal8grey", "pal8topdown", "pal8os2", "pal4os2v2",
                     "pal8v5", "pal8offset", "rgb16", "rgb16-565", "rgb24", "rgb24topdown", "rgb32", "rgb32bf",
                     "rgba32v4", "rgba32v5", "rle8", "rle8topdown", "rle4"]:
            try:
                im = Image.open(name + ".bmp")
                im.load()
            except Exception as error:
                print(name, "refused", type(error).__name__)
                continue
            mode = "RGBA" if "A" in im.mode else "RGB"
            data = im.convert(mode).tobytes()
            print(name, mode, im.width, im.height, data.hex())
        """#

    @Test func everyKindOfBitmapDecodesAsPillowDecodesIt() throws {
        let fixture = try PreviewFixture()
        let lines = try fixture.pillow(Self.writer).split(separator: "\n")
        var compared = 0
        for line in lines {
            let fields = line.split(separator: " ").map(String.init)
            let name = fields[0] + ".bmp"
            let bytes = try [UInt8](Data(contentsOf: fixture.folder.appendingPathComponent(name)))
            let pixels = try BMPDecoder.decode(bytes, strict: true)
            // Pillow reads no 2-bit bitmap; the rest it reads.
            guard fields[1] != "refused" else {
                #expect(fields[0] == "pal2", "Pillow refused \(name)")
                #expect(pixels.width == 13 && pixels.height == 7)
                continue
            }
            #expect(pixels.bands == (fields[1] == "RGBA" ? 4 : 3), "\(name)")
            #expect("\(pixels.width) \(pixels.height)" == "\(fields[2]) \(fields[3])", "\(name)")
            let hex = pixels.samples.map { String(format: "%02x", $0) }.joined()
            #expect(hex == fields[4], "\(name): pixels differ from Pillow's")
            compared += 1
        }
        #expect(compared == 21)
    }

    @Test func aBitmapIsRenderedThroughTheSamePipeline() throws {
        let renderer = try PreviewFixture.renderer()
        let fixture = try PreviewFixture()
        try fixture.pillow(Self.writer)
        let bytes = try [UInt8](Data(contentsOf: fixture.folder.appendingPathComponent("rgba32v4.bmp")))
        let preview = try renderer.render(try BMPDecoder.decode(bytes), maxPixelSize: 256)
        // Never enlarged, flattened (a JPEG), of the bitmap's shape.
        #expect(preview.pixelWidth == 13 && preview.pixelHeight == 7)
        #expect(try fixture.pillowReading(preview, as: "out.jpg").hasPrefix("13 7 RGB"))
        let small = try renderer.render(try BMPDecoder.decode(bytes), maxPixelSize: 4)
        #expect(small.pixelWidth == 4 && small.pixelHeight == 2)
    }

    /// Every bitmap in the folder `ALBUMKIT_PYPI_CORPUS` names (Pillow's own test files among them,
    /// `Scripts/media/pypi-corpus.sh` downloads them) that Pillow opens decodes to Pillow's pixels.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["ALBUMKIT_PYPI_CORPUS"] != nil))
    func bitmapsOtherProjectsTestWithDecodeAsPillowDecodesThem() throws {
        let root = try #require(ProcessInfo.processInfo.environment["ALBUMKIT_PYPI_CORPUS"])
        let names = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? [])
            .filter { $0.lowercased().hasSuffix(".bmp") }.sorted()
        let fixture = try PreviewFixture()
        let listing = fixture.folder.appendingPathComponent("bitmaps.txt")
        try names.map { root + "/" + $0 }.joined(separator: "\n").write(to: listing, atomically: true, encoding: .utf8)
        let lines = try fixture.pillow(
            """
            from PIL import Image
            for path in open("bitmaps.txt").read().split("\\n"):
                try:
                    im = Image.open(path)
                    im.load()
                except Exception:
                    continue
                mode = "RGBA" if "A" in im.mode else "RGB"
                print(path, mode, im.convert(mode).tobytes().hex(), sep="\\t")
            """
        ).split(separator: "\n")
        var differ: [String] = []
        for line in lines {
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 3 else { continue }
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fields[0])))
            do {
                let pixels = try BMPDecoder.decode(bytes)
                let hex = pixels.samples.map { String(format: "%02x", $0) }.joined()
                if hex != fields[2] || (pixels.bands == 4) != (fields[1] == "RGBA") { differ.append(fields[0]) }
            } catch {
                differ.append("\(fields[0]): \(error)")
            }
        }
        print("bitmaps: \(names.count), Pillow opens \(lines.count), decoded otherwise: \(differ.count)")
        #expect(lines.count > 0)
        #expect(differ.isEmpty, "\(differ.joined(separator: "\n"))")
    }

    /// A bitmap's header: `width`, `height`, `bits`, `compression`, `colours` and `offset` as given,
    /// then `padding` zero bytes.
    static func header(
        width: Int32, height: Int32, bits: UInt16 = 24, compression: UInt32 = 0, colours: UInt32 = 0,
        offset: UInt32 = 54, size: UInt32 = 40, padding: Int = 64
    ) -> [UInt8] {
        var bytes: [UInt8] = [0x42, 0x4D]
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        append(UInt32(0))
        append(UInt32(0))
        append(offset)
        append(size)
        append(width)
        append(height)
        append(UInt16(1))
        append(bits)
        append(compression)
        append(UInt32(0))
        append(Int32(0))
        append(Int32(0))
        append(colours)
        append(UInt32(0))
        return bytes + [UInt8](repeating: 0, count: padding)
    }

    /// A damaged bitmap and the words its refusal must say.
    struct Hostile: Sendable, CustomTestStringConvertible {
        var what: String
        var bytes: [UInt8]
        var reason: String
        var testDescription: String { what }
    }

    static let hostile: [Hostile] = [
        Hostile(what: "huge", bytes: header(width: 100_000, height: 100_000), reason: "more than"),
        Hostile(what: "negative width", bytes: header(width: -5, height: 5), reason: "no pixels"),
        Hostile(what: "no height", bytes: header(width: 5, height: 0), reason: "no pixels"),
        Hostile(what: "odd depth", bytes: header(width: 5, height: 5, bits: 7), reason: "7 bits"),
        Hostile(
            what: "palette overflow", bytes: header(width: 5, height: 5, bits: 8, colours: 70_000), reason: "palette"),
        Hostile(
            what: "palette past the end", bytes: header(width: 5, height: 5, bits: 8, colours: 200), reason: "palette"),
        Hostile(
            what: "pixels past the end", bytes: header(width: 5, height: 5, offset: 9_000), reason: "past the end"),
        Hostile(
            what: "unknown compression", bytes: header(width: 5, height: 5, compression: 9), reason: "compression"),
        Hostile(what: "unknown header", bytes: header(width: 5, height: 5, size: 77, padding: 80), reason: "header"),
        Hostile(what: "header past the end", bytes: Array(header(width: 5, height: 5).prefix(30)), reason: "header"),
        Hostile(
            what: "a printer's JPEG", bytes: header(width: 5, height: 5, bits: 0, compression: 4),
            reason: "holds a JPEG"),
        Hostile(what: "not a bitmap", bytes: Array("GIF89a and more bytes after it".utf8), reason: "not a BMP"),
        Hostile(what: "rows cut short", bytes: header(width: 500, height: 500, padding: 10), reason: "first row"),
    ]

    @Test(arguments: hostile)
    func hostileHeadersAreRefusedWithAReason(_ hostile: Hostile) {
        #expect {
            _ = try BMPDecoder.decode(hostile.bytes)
        } throws: { error in
            (error as? PreviewError)?.kind == .undecodable && "\(error)".contains(hostile.reason)
        }
    }

    @Test func runLengthCodesRunningPastTheEndShowWhatTheyGive() throws {
        // A 4 × 4 RLE8 bitmap whose codes stop after one row and an absolute run cut off mid-way.
        var bytes = Self.header(width: 4, height: 4, bits: 8, compression: 1, colours: 2, offset: 62, padding: 0)
        bytes += [0, 0, 0, 0, 255, 255, 255, 0]
        bytes += [4, 1, 0, 0, 0, 9, 0, 0]
        let shown = try BMPDecoder.decode(bytes)
        #expect(shown.width == 4 && shown.height == 4 && shown.samples.count == 48)
        // The bottom row is palette entry 1 (white), the rest entry 0 (black).
        #expect(Array(shown.samples.suffix(12)) == [UInt8](repeating: 255, count: 12))
        #expect(shown.samples.prefix(36).allSatisfy { $0 == 0 })
        #expect(throws: PreviewError.self) { _ = try BMPDecoder.decode(bytes, strict: true) }
    }

    @Test func damagedBitmapsNeverCrashTheDecoder() throws {
        let fixture = try PreviewFixture()
        try fixture.pillow(Self.writer)
        var generator = Mixer(state: 44)
        var decoded = 0
        for name in ["pal4os2v2", "pal8os2", "rgb16-565", "rgba32v5", "rle8", "rle4"] {
            let original = try [UInt8](Data(contentsOf: fixture.folder.appendingPathComponent(name + ".bmp")))
            for _ in 0..<300 {
                var bytes = original
                for _ in 0..<Int(generator.next() % 6 + 1) {
                    let at = Int(generator.next() % UInt64(bytes.count))
                    bytes[at] = UInt8(truncatingIfNeeded: generator.next())
                }
                if generator.next() % 4 == 0 { bytes.removeLast(Int(generator.next() % UInt64(bytes.count))) }
                if let pixels = try? BMPDecoder.decode(bytes) {  // a refusal is as good as a decode here
                    #expect(pixels.samples.count == pixels.width * pixels.height * pixels.bands)
                    decoded += 1
                }
            }
        }
        #expect(decoded > 0)
    }

    /// SplitMix64: the same damage on every run.
    struct Mixer {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
    }
}
