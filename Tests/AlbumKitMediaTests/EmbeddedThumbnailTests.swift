import Foundation
import Testing
@testable import AlbumKitMedia

/// EXIF thumbnails (IFD1) written by exiftool into ImageMagick JPEGs, read back byte for byte.
@Suite struct EmbeddedThumbnailTests {
    /// A 400×300 JPEG and, when `thumbnail`, a 160×120 JPEG thumbnail written by exiftool.
    static func photo(thumbnail: Bool) throws -> (path: String, thumbnail: [UInt8]) {
        let directory = try Decoders.scratch()
        let photo = directory.appendingPathComponent("photo.jpg").path
        let small = directory.appendingPathComponent("thumb.jpg").path
        #expect(try Decoders.run("convert", ["-size", "400x300", "gradient:red-blue", photo]).status == 0)
        #expect(try Decoders.run("convert", ["-size", "160x120", "xc:green", small]).status == 0)
        guard thumbnail else { return (photo, []) }
        let run = try Decoders.run("exiftool", ["-q", "-overwrite_original", "-ThumbnailImage<=" + small, photo])
        #expect(run.status == 0, "\(run.errors)")
        return (photo, Array(try Data(contentsOf: URL(fileURLWithPath: small))))
    }

    static func thumbnail(_ bytes: [UInt8]) throws -> EmbeddedThumbnail? {
        try MediaInspector().embeddedThumbnail(BufferByteSource(bytes: bytes))
    }

    @Test func jpegGivesItsEXIFThumbnail() throws {
        let (path, small) = try Self.photo(thumbnail: true)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let thumbnail = try #require(try Self.thumbnail(bytes))
        #expect(thumbnail.width == 160 && thumbnail.height == 120)
        #expect(thumbnail.jpeg == small)
        let exif = try Decoders.exiftool(path, ["-ThumbnailLength"])
        #expect(exif["IFD1:ThumbnailLength"] as? Int == small.count, "\(exif)")
    }

    @Test func tiffStructureGivesItsIFD1Thumbnail() throws {
        // The EXIF block of a JPEG is a TIFF structure: as a file of its own it takes the TIFF path.
        let (path, small) = try Self.photo(thumbnail: true)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let exif = try #require(bytes.firstIndex(of: Array("Exif\0\0".utf8)))
        let length = Int(bytes[exif - 2]) << 8 | Int(bytes[exif - 1])
        let tiff = Array(bytes[(exif + 6)..<(exif - 2 + length)])
        let thumbnail = try #require(try Self.thumbnail(tiff))
        #expect(thumbnail.jpeg == small && thumbnail.width == 160)
    }

    @Test func photoWithoutThumbnailGivesNone() throws {
        let (path, _) = try Self.photo(thumbnail: false)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(try Self.thumbnail(bytes) == nil)
        let png = try Decoders.scratch().appendingPathComponent("photo.png").path
        #expect(try Decoders.run("convert", [path, png]).status == 0)
        #expect(try Self.thumbnail(Array(try Data(contentsOf: URL(fileURLWithPath: png)))) == nil)
        #expect(try Self.thumbnail([]) == nil)
    }

    @Test func damagedThumbnailGivesNone() throws {
        let (path, small) = try Self.photo(thumbnail: true)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        // Damage the thumbnail's own start-of-image marker: the photo stays readable, the thumbnail is none.
        let start = try #require(bytes.firstIndex(of: Array(small.prefix(16)), from: 4))
        bytes[start + 1] = 0x00
        #expect(try Self.thumbnail(bytes) == nil)
        #expect(throws: Never.self) { try MediaInspector().inspect(BufferByteSource(bytes: bytes)) }
    }
}
