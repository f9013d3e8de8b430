import Foundation
import Testing
@testable import AlbumKitMedia

/// Fujifilm RAF files written to the format's published layout (Support/Writers.swift), read back by
/// exiftool, dcraw and LibRaw's raw-identify as the independent check.
@Suite struct RAFTests {
    static func file(_ configure: (inout Writers.RAF) -> Void = { _ in }) throws -> [UInt8] {
        var raf = Writers.RAF(preview: try Decoders.ffmpeg("preview.jpg", ["-frames:v", "1"]))
        configure(&raf)
        return Writers.raf(raf)
    }

    @Test(arguments: [1, 6])
    func rafMatchesExiftoolAndTheRawDecoders(orientation: Int) throws {
        let path = try Decoders.write(try Self.file { $0.orientation = orientation }, name: "DSCF0001.RAF")
        let exif = try Decoders.exiftool(path)
        #expect(exif["File:FileType"] as? String == "RAF", "\(exif)")
        let metadata = try inspect(path: path).get()
        #expect(metadata.format == .raw && metadata.kind == .photo)
        #expect(metadata.make == exif["IFD0:Make"] as? String && metadata.make == "FUJIFILM")
        #expect(metadata.model == exif["IFD0:Model"] as? String && metadata.model == "X-T3")
        #expect(metadata.captureDate == MetadataSourcesTests.iso(exif["ExifIFD:DateTimeOriginal"]))
        #expect(metadata.captureDate == "2024-05-01T10:20:30")
        #expect(metadata.orientation == exif["IFD0:Orientation"] as? Int)
        // exiftool's image size for RAF is the raw's cropped size; orientation 5–8 swaps it for display
        let size = try #require(exif["Composite:ImageSize"] as? String).split(separator: " ").compactMap { Int($0) }
        let displayed = orientation >= 5 ? [size[1], size[0]] : size
        #expect([metadata.width, metadata.height] == displayed.map { Optional($0) }, "\(size)")
        #expect(size == [96, 64])
        #expect(metadata.warnings.isEmpty)

        // dcraw and LibRaw recognise the camera, the date and the size
        let dcraw = try Decoders.run("dcraw", ["-i", "-v", path])
        #expect(dcraw.status == 0, "\(dcraw.errors)")
        #expect(dcraw.output.contains("Camera: Fujifilm X-T3"), "\(dcraw.output)")
        #expect(dcraw.output.contains("Timestamp: Wed May  1 10:20:30 2024"), "\(dcraw.output)")
        let imageSize = dcraw.output.split(separator: "\n").first { $0.hasPrefix("Image size:") }
        #expect(imageSize?.split(separator: " ").suffix(3) == ["96", "x", "64"], "\(dcraw.output)")
        let libraw = try Decoders.run("raw-identify", ["-v", path])
        #expect(libraw.output.contains("Camera: Fujifilm X-T3"), "\(libraw.output)")
    }

    @Test func rafCutInItsRawDataIsRefused() throws {
        let path = try Decoders.write(try Self.file { $0.cutRawData = true }, name: "cut.RAF")
        let result = inspect(path: path)
        #expect(result.error?.kind == .corrupt, "\(result)")
        #expect(result.error?.reason.contains("raw data") == true)
    }

    @Test func rafSizeFallsBackToTheRawTIFFDirectory() throws {
        // Without the raw header's records, the Fuji IFD of the raw data gives the (full) size
        var bytes = try Self.file()
        let records = Int(bytes.u32(92))
        bytes.replaceSubrange(records..<records + 4, with: [UInt8].be32(0))
        let metadata = try inspect(bytes).get()
        #expect(metadata.width == 96 + 16 && metadata.height == 64 + 8)
        #expect(metadata.model == "X-T3")
    }

    @Test func rafHeaderCutShortIsCorrupt() throws {
        let bytes = Array(try Self.file().prefix(100))
        #expect(inspect(bytes).error?.kind == .corrupt)
    }
}
