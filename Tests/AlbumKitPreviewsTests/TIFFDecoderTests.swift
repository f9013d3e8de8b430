import AlbumKitPreviews
import AlbumTestSupport
import Foundation
import Testing

/// The TIFFs libvips refuses, read through libtiff: written byte by byte by the script below (RGB in
/// separate planes, 12-bit grey, 32-bit floats without a photometric interpretation), decoded by
/// AlbumKit and compared with Pillow's pixels (the planes) or with the stretch of their range to
/// 8 bits (the grey depths).
@Suite struct TIFFDecoderTests {
    /// Writes `planar.tif`, `grey12.tif`, `float32.tif` and `huge.tif` into the current folder and
    /// prints, for each of the first three, its name and the 8-bit grey or RGB bytes expected, in
    /// hexadecimal.
    static let writer = #"""
        import struct
        from PIL import Image

        def tiff(name, width, height, tags, data):
            # Little-endian; the pixel data right after the header, the IFD after it, long values after that.
            start = 8
            ifd = start + len(data)
            count = len(tags)
            extra = ifd + 2 + count * 12 + 4
            entries, tail = b"", b""
            for tag, kind, values in sorted(tags):
                size = {3: 2, 4: 4}[kind]
                packed = b"".join(struct.pack("<H" if kind == 3 else "<I", v) for v in values)
                if len(packed) <= 4:
                    field = packed + b"\0" * (4 - len(packed))
                else:
                    field = struct.pack("<I", extra + len(tail))
                    tail += packed
                entries += struct.pack("<HHI", tag, kind, len(values)) + field
            head = b"II*\0" + struct.pack("<I", ifd)
            open(name, "wb").write(head + data + struct.pack("<H", count) + entries + b"\0\0\0\0" + tail)

        W, H = 7, 5
        planes = [bytes((x * 30 + y * p * 20) % 256 for y in range(H) for x in range(W)) for p in range(3)]
        tiff("planar.tif", W, H, [(256, 4, [W]), (257, 4, [H]), (258, 3, [8, 8, 8]), (259, 3, [1]), (262, 3, [2]),
             (273, 4, [8, 8 + W * H, 8 + 2 * W * H]), (277, 3, [3]), (278, 4, [H]), (279, 4, [W * H] * 3),
             (284, 3, [2])], b"".join(planes))
        print("planar", Image.open("planar.tif").convert("RGB").tobytes().hex())

        def stretch(values):
            low, high = min(values), max(values)
            return bytes(int((v - low) / (high - low) * 255.0 + 0.5) for v in values)

        values = [(x * 577 + y * 91) % 4096 for y in range(H) for x in range(W)]
        rows = b""
        for y in range(H):
            bits = "".join(format(v, "012b") for v in values[y * W:(y + 1) * W])
            bits += "0" * (-len(bits) % 8)
            rows += int(bits, 2).to_bytes(len(bits) // 8, "big")
        tiff("grey12.tif", W, H, [(256, 4, [W]), (257, 4, [H]), (258, 3, [12]), (259, 3, [1]), (262, 3, [1]),
             (273, 4, [8]), (277, 3, [1]), (278, 4, [H]), (279, 4, [len(rows)])], rows)
        print("grey12", stretch(values).hex())

        reals = [struct.unpack("<f", struct.pack("<f", (x - 3) * 1.1 - y * 0.37))[0] for y in range(H) for x in range(W)]
        data = b"".join(struct.pack("<f", v) for v in reals)
        tiff("float32.tif", W, H, [(256, 4, [W]), (257, 4, [H]), (258, 3, [32]), (259, 3, [1]), (273, 4, [8]),
             (277, 3, [1]), (278, 4, [H]), (279, 4, [len(data)]), (339, 3, [3])], data)
        print("float32", stretch(reals).hex())

        tiff("huge.tif", 100000, 100000, [(256, 4, [100000]), (257, 4, [100000]), (258, 3, [16]), (259, 3, [1]),
             (262, 3, [1]), (273, 4, [8]), (277, 3, [1]), (278, 4, [1]), (279, 4, [16])], b"\0" * 16)
        """#

    @Test func tiffsLibvipsRefusesAreReadThroughLibtiff() throws {
        let renderer = try PreviewFixture.renderer()
        let fixture = try PreviewFixture()
        var expected: [String: String] = [:]
        for line in try fixture.pillow(Self.writer).split(separator: "\n") {
            let fields = line.split(separator: " ").map(String.init)
            expected[fields[0]] = fields[1]
        }
        #expect(expected.count == 3)
        for name in ["planar", "grey12", "float32"] {
            let bytes = try [UInt8](Data(contentsOf: fixture.folder.appendingPathComponent(name + ".tif")))
            let pixels = try TIFFDecoder.decode(bytes)
            #expect(pixels.width == 7 && pixels.height == 5 && pixels.bands == 4, "\(name)")
            let rgb = stride(from: 0, to: pixels.samples.count, by: 4).flatMap { pixels.samples[$0..<$0 + 3] }
            let grey = stride(from: 0, to: pixels.samples.count, by: 4).map { pixels.samples[$0] }
            let shown = (name == "planar" ? rgb : grey).map { String(format: "%02x", $0) }.joined()
            #expect(shown == expected[name], "\(name): pixels differ")
            #expect(stride(from: 3, to: pixels.samples.count, by: 4).allSatisfy { pixels.samples[$0] == 255 })
            // libvips itself refuses the grey depths (these planes it reads; tiled or with overviews
            // it does not); through libtiff they are all pictured.
            if name != "planar" {
                #expect(throws: PreviewError.self) { _ = try fixture.render(name + ".tif", maxPixelSize: 256) }
            }
            let thumbnail = try renderer.render(pixels, maxPixelSize: 256)
            #expect(thumbnail.pixelWidth == 7 && thumbnail.pixelHeight == 5)
        }
    }

    @Test func aTIFFLargerThanTheLimitIsRefusedBeforeItIsDecoded() throws {
        let fixture = try PreviewFixture()
        try fixture.pillow(Self.writer)
        let bytes = try [UInt8](Data(contentsOf: fixture.folder.appendingPathComponent("huge.tif")))
        #expect {
            _ = try TIFFDecoder.decode(bytes)
        } throws: { error in
            (error as? PreviewError)?.kind == .undecodable && "\(error)".contains("more than")
        }
        #expect(throws: PreviewError.self) { _ = try TIFFDecoder.decode(Array("II*\0 not a TIFF".utf8)) }
    }
}
