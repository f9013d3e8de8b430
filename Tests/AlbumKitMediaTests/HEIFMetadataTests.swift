import Foundation
import Testing
@testable import AlbumKitMedia

/// HEIF files built byte by byte: an XMP item (`mime`, `application/rdf+xml`) and an image
/// sequence next to the still image (a burst), each read as exiftool reads them.
@Suite struct HEIFMetadataTests {
    typealias A = AdversarialTests
    typealias H = HEIFTransformTests

    /// A HEIC with item 1 (`hvc1`, 4 bytes) and item 2 (`mime` XMP `packet`), both in `mdat`.
    static func heic(xmp packet: [UInt8]) -> [UInt8] {
        let hdlr = H.fullBox("hdlr", [0, 0, 0, 0] + Array("pict".utf8) + Array(repeating: 0, count: 13))
        let pitm = H.fullBox("pitm", [0, 1])
        let image = A.box("infe", [2, 0, 0, 0, 0, 1, 0, 0] + Array("hvc1".utf8) + [0])
        let xmp = A.box(
            "infe", [2, 0, 0, 0, 0, 2, 0, 0] + Array("mime".utf8) + [0] + Array("application/rdf+xml".utf8) + [0])
        let iinf = H.fullBox("iinf", [0, 2] + image + xmp)
        let ispe = H.fullBox("ispe", A.be32(16) + A.be32(12))
        let iprp = A.box("iprp", A.box("ipco", ispe) + H.fullBox("ipma", A.be32(1) + [0, 1, 1, 1]))
        func meta(_ offset: Int) -> [UInt8] {
            let iloc = H.fullBox(
                "iloc",
                [0x44, 0x00, 0, 2] + [0, 1, 0, 0, 0, 1] + A.be32(UInt32(offset)) + A.be32(4) + [0, 2, 0, 0, 0, 1]
                    + A.be32(UInt32(offset + 4)) + A.be32(UInt32(packet.count)))
            return H.fullBox("meta", hdlr + pitm + iinf + iloc + iprp)
        }
        let data = A.ftypHEIC.count + meta(0).count + 8
        return A.ftypHEIC + meta(data) + A.box("mdat", [1, 2, 3, 4] + packet)
    }

    @Test func xmpItemGivesDateAndCamera() throws {
        let packet = XMPPacketTests.packet(
            "<rdf:Description xmlns:exif='http://ns.adobe.com/exif/1.0/' xmlns:tiff='http://ns.adobe.com/tiff/1.0/' exif:DateTimeOriginal='2024-05-01T10:20:30+02:00' tiff:Make='Apple' tiff:Model='iPhone 15'/>"
        )
        let path = try Decoders.write(Self.heic(xmp: packet), name: "xmp.heic")
        let exif = try Decoders.exiftool(path)
        let metadata = try inspect(path: path).get()
        #expect(metadata.format == .heic && metadata.width == 16)
        #expect(metadata.captureDate == MetadataSourcesTests.iso(exif["XMP-exif:DateTimeOriginal"]), "\(exif)")
        #expect(metadata.captureDate == "2024-05-01T10:20:30+02:00")
        #expect(metadata.make == exif["XMP-tiff:Make"] as? String && metadata.model == "iPhone 15")
    }

    @Test func burstTakesItsDateFromTheSequenceAndIsAnimated() throws {
        // A still image and, after it, an image sequence whose movie header holds the date
        let created = 3_797_403_630  // 2024-05-01T10:20:30Z in seconds since 1904
        let bytes =
            H.heic(extraProperties: []) + Writers.moov(handlers: ["pict"], width: 16, height: 12, created: created)
        let path = try Decoders.write(bytes, name: "burst.heic")
        let exif = try Decoders.exiftool(path)
        let metadata = try inspect(path: path).get()
        #expect(metadata.format == .heic && metadata.kind == .photo && metadata.isAnimated)
        #expect(metadata.captureDate == MetadataSourcesTests.iso(exif["QuickTime:CreateDate"]).map { $0 + "Z" })
        #expect(metadata.captureDate == "2024-05-01T10:20:30Z")
        #expect(metadata.width == 16 && metadata.duration == nil)
        // A damaged sequence leaves the still image, with a warning
        var damaged = bytes
        let mvhd = bytes.count - Writers.moov(handlers: ["pict"], width: 16, height: 12).count + 8
        damaged.replaceSubrange(mvhd..<mvhd + 4, with: A.be32(0xFFFF))  // mvhd now runs past its moov
        let still = try inspect(damaged).get()
        #expect(still.width == 16 && !still.isAnimated && still.warnings.count == 1, "\(still.warnings)")
    }
}
