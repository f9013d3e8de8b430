import AlbumKitPreviews
import AlbumTestSupport
import Foundation
import Testing

/// libheif's own API, the way AlbumKit reads the HEIF files libvips 8.14 refuses: a HEIC written by
/// pillow-heif decodes to the pixels Pillow reads from it (within the codec's rounding), at its
/// size; bytes that are no HEIF give libheif's reason.
@Suite struct HEIFDecoderTests {
    @Test func aHEICDecodesAsPillowDecodesIt() throws {
        _ = try PreviewFixture.renderer()
        let fixture = try PreviewFixture()
        let expected = try fixture.pillow(
            """
            from PIL import Image
            import pillow_heif
            pillow_heif.register_heif_opener()
            picture = Image.new("RGB", (96, 40))
            picture.putdata([((x * 8) % 256, (y * 6) % 256, (x + y) * 2 % 256) for y in range(40) for x in range(96)])
            picture.save("picture.heic", quality=100)
            print(Image.open("picture.heic").convert("RGB").tobytes().hex())
            """, modules: ["PIL", "pillow_heif"]
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        let bytes = try [UInt8](Data(contentsOf: fixture.folder.appendingPathComponent("picture.heic")))
        let pixels = try HEIFDecoder.decode(bytes)
        #expect(pixels.width == 96 && pixels.height == 40 && pixels.bands == 3)
        let pillow = stride(from: 0, to: expected.count, by: 2).map { offset -> Int in
            let start = expected.index(expected.startIndex, offsetBy: offset)
            return Int(expected[start..<expected.index(start, offsetBy: 2)], radix: 16) ?? -1
        }
        #expect(pillow.count == pixels.samples.count)
        let difference = zip(pillow, pixels.samples).map { abs($0 - Int($1)) }.reduce(0, +)
        // Two builds of libheif (pillow-heif's and Debian's) may round the colour conversion apart.
        #expect(
            Double(difference) / Double(max(1, pillow.count)) < 3,
            "mean difference \(difference / max(1, pillow.count))")
    }

    @Test func bytesThatAreNoHEIFGiveLibheifsReason() throws {
        _ = try PreviewFixture.renderer()
        #expect {
            _ = try HEIFDecoder.decode(Array("\0\0\0\u{18}ftypheic but nothing after it".utf8))
        } throws: { error in
            (error as? PreviewError)?.kind == .undecodable && "\(error)".contains("libheif")
        }
    }
}
