import Foundation
import Testing
@testable import AlbumKitMedia

/// Canon CR3 built byte by byte (ISO media with brand `crx `; the Canon `uuid` box in `moov` holds
/// CMT1, a TIFF with the camera, size and orientation, and CMT2, a TIFF with the EXIF tags), read
/// as exiftool reads it.
@Suite struct CR3Tests {
    static func cr3(orientation: Int) -> [UInt8] {
        let cmt1 = Writers.tiff([
            .long(0x0100, 6000), .long(0x0101, 4000), .ascii(0x010F, "Canon"), .ascii(0x0110, "Canon EOS R5"),
            .short(0x0112, orientation),
        ])
        let cmt2 = Writers.tiff([.ascii(0x9003, "2024:05:01 10:20:30"), .ascii(0x9011, "+02:00")])
        let canon = Writers.box(
            "uuid",
            ISOBMFFParser.canonUUID + Writers.box("CNCV", Array("CanonCR3_001/00.09.00/00.00.00".utf8))
                + Writers.box("CMT1", cmt1) + Writers.box("CMT2", cmt2))
        var moov = Writers.moov(handlers: ["vide"], width: 0, height: 0)
        moov += canon
        moov.replaceSubrange(0..<4, with: [UInt8].be32(moov.count))
        let ftyp = Writers.box("ftyp", Array("crx ".utf8) + .be32(1) + Array("crx isom".utf8))
        return ftyp + moov + Writers.box("mdat", [UInt8](repeating: 0x55, count: 64))
    }

    @Test(arguments: [1, 8])
    func cr3MatchesExiftool(orientation: Int) throws {
        let path = try Decoders.write(Self.cr3(orientation: orientation), name: "IMG_0001.CR3")
        let exif = try Decoders.exiftool(path)
        #expect(exif["File:FileType"] as? String == "CR3", "\(exif)")
        let metadata = try inspect(path: path).get()
        #expect(metadata.format == .raw && metadata.kind == .photo && !metadata.isAnimated)
        #expect(metadata.make == exif["IFD0:Make"] as? String && metadata.make == "Canon")
        #expect(metadata.model == exif["IFD0:Model"] as? String)
        #expect(metadata.orientation == exif["IFD0:Orientation"] as? Int && metadata.orientation == orientation)
        let date = try #require(MetadataSourcesTests.iso(exif["ExifIFD:DateTimeOriginal"]))
        #expect(metadata.captureDate == date + (exif["ExifIFD:OffsetTimeOriginal"] as? String ?? ""))
        #expect(metadata.captureDate == "2024-05-01T10:20:30+02:00")
        let size = orientation >= 5 ? (4000, 6000) : (6000, 4000)
        #expect(metadata.width == size.0 && metadata.height == size.1)
        #expect(metadata.duration == nil)
    }
}
