import Foundation
import Testing
@testable import AlbumKitMedia

/// Capture dates written where EXIF is not: IPTC's DateCreated + TimeCreated (JPEG APP13, TIFF) and
/// AVI's `INFO` `ICRD`, each equal to exiftool's reading of a file exiftool or ffmpeg wrote during
/// the test, in exiftool's Composite order (EXIF, XMP, IPTC, then the container's).
@Suite struct CaptureDateSourcesTests {
    static let iptcTags = ["-IPTC:DateCreated=2024:05:01", "-IPTC:TimeCreated=10:20:30+02:00"]

    @Test(arguments: ["jpg", "tif"])
    func iptcDateAndTimeGiveTheCaptureDate(_ ext: String) throws {
        // Given a picture whose only date is IPTC's (Photoshop, Photo Mechanic, news agencies)
        let base = try Decoders.ffmpeg("base.\(ext)", ["-frames:v", "1"])
        let path = try MetadataSourcesTests.written(base, name: "iptc.\(ext)", Self.iptcTags)
        let exif = try Decoders.exiftool(path, ["-DateTimeOriginal", "-CreateDate"])
        #expect(exif["ExifIFD:DateTimeOriginal"] == nil && exif["XMP-exif:DateTimeOriginal"] == nil, "\(exif)")
        // Then AlbumKit reads exiftool's Composite DateTimeOriginal
        let metadata = try inspect(path: path).get()
        #expect(metadata.captureDate == MetadataSourcesTests.iso(exif["Composite:DateTimeOriginal"]))
        #expect(metadata.captureDate == "2024-05-01T10:20:30+02:00")
    }

    @Test func exifThenXMPComeBeforeIPTC() throws {
        let base = try Decoders.ffmpeg("base.jpg", ["-frames:v", "1"])
        let xmp = try MetadataSourcesTests.written(
            base, name: "xmp-iptc.jpg", Self.iptcTags + ["-XMP-xmp:CreateDate=2023:02:03 04:05:06"])
        #expect(try inspect(path: xmp).get().captureDate == "2023-02-03T04:05:06")
        let exif = try MetadataSourcesTests.written(
            base, name: "exif-iptc.jpg", Self.iptcTags + ["-ExifIFD:DateTimeOriginal=2022:03:04 05:06:07"])
        let read = try Decoders.exiftool(exif, ["-DateTimeOriginal"])
        #expect(try inspect(path: exif).get().captureDate == MetadataSourcesTests.iso(read["ExifIFD:DateTimeOriginal"]))
        #expect(try inspect(path: exif).get().captureDate == "2022-03-04T05:06:07")
    }

    @Test func aviDateFromINFOWhenThereIsNoIDIT() throws {
        // ffmpeg writes its `date` as the INFO list's ICRD (exiftool's RIFF:DateCreated)
        let avi = try Decoders.ffmpeg(
            "icrd.avi", ["-t", "1", "-c:v", "mpeg4", "-metadata", "date=2024-05-01 10:20:30"])
        let path = try Decoders.write(avi, name: "icrd.avi")
        let exif = try Decoders.exiftool(path)
        let metadata = try inspect(path: path).get()
        #expect(metadata.captureDate == MetadataSourcesTests.iso(exif["RIFF:DateCreated"]))
        #expect(metadata.captureDate == "2024-05-01T10:20:30")
        // The camera's IDIT comes first
        let both = try Decoders.write(Writers.withIDIT(avi, date: "Wed Jun 05 11:12:13 2024"), name: "both.avi")
        #expect(try inspect(path: both).get().captureDate == "2024-06-05T11:12:13")
        // A day alone is no capture time
        let day = try Decoders.ffmpeg("day.avi", ["-t", "1", "-c:v", "mpeg4", "-metadata", "date=2024-05-01"])
        #expect(try inspect(day).get().captureDate == nil)
    }

    /// Pentax's movies name the camera only in their `udta/TAGS` block, as exiftool reads it.
    @Test func pentaxMovieMakeFromItsTAGSBlock() throws {
        var tags = Array("PENTAX DIGITAL CAMERA".utf8) + [UInt8](repeating: 0, count: 3)
        tags += [UInt8](repeating: 0, count: 153)
        let moov = Writers.moov(handlers: ["vide"], width: 32, height: 24, created: 3_206_613_834)
        let movie =
            Writers.box("ftyp", Array("qt  ".utf8) + .be32(0) + Array("qt  ".utf8))
            + Writers.box("moov", Array(moov[8...]) + Writers.box("udta", Writers.box("TAGS", tags)))
            + Writers.box("mdat", [1, 2, 3, 4])
        let path = try Decoders.write(movie, name: "pentax.mov")
        let exif = try Decoders.exiftool(path, ["-Make", "-CreateDate"])
        let metadata = try inspect(path: path).get()
        #expect(metadata.make == exif["Pentax:Make"] as? String)
        #expect(metadata.make == "PENTAX DIGITAL CAMERA")
        #expect(metadata.captureDate == "2005-08-11T14:03:54Z")
        // Another maker's block of that name, or one cut short, gives no make.
        let other = Writers.box("moov", Array(moov[8...]) + Writers.box("udta", Writers.box("TAGS", [0x50, 0x45])))
        #expect(try inspect(Writers.box("ftyp", Array("qt  ".utf8) + .be32(0)) + other).get().make == nil)
    }

    /// IIM datasets `1C record dataset length data`.
    static func dataset(_ record: UInt8, _ number: UInt8, _ text: String) -> [UInt8] {
        [0x1C, record, number] + [UInt8].be16(text.utf8.count) + Array(text.utf8)
    }

    @Test func iptcRecordsAreReadWithinTheirBounds() {
        let good = Self.dataset(2, 0, "\0\u{4}") + Self.dataset(2, 55, "20240501") + Self.dataset(2, 60, "102030-0330")
        #expect(IPTCRecord(iim: good)?.captureDate == "2024-05-01T10:20:30-03:30")
        #expect(
            IPTCRecord(iim: Self.dataset(2, 55, "20240501") + Self.dataset(2, 60, "102030"))?.captureDate
                == "2024-05-01T10:20:30")
        // In Photoshop's image resources, after another resource with an odd-length name
        let other = Array("8BIM".utf8) + [0x03, 0xED, 3] + Array("abc".utf8) + .be32(3) + [1, 2, 3, 0]
        let iim = Array("8BIM".utf8) + [0x04, 0x04, 0, 0] + .be32(good.count) + good
        #expect(IPTCRecord(imageResources: other + iim)?.captureDate == "2024-05-01T10:20:30-03:30")
        // Extended lengths are followed; a day alone, no date, bad digits or a zero day give none.
        let extended: [UInt8] = [0x1C, 2, 25, 0x80, 0x02, 0x00, 0x03] + Array("key".utf8)
        #expect(IPTCRecord(iim: extended + good)?.captureDate == "2024-05-01T10:20:30-03:30")
        #expect(IPTCRecord(iim: Self.dataset(2, 55, "20240501")) == nil)
        #expect(IPTCRecord(iim: Self.dataset(2, 60, "102030")) == nil)
        #expect(IPTCRecord(iim: Self.dataset(2, 55, "00000000") + Self.dataset(2, 60, "102030")) == nil)
        #expect(IPTCRecord(iim: Self.dataset(2, 55, "2024O501") + Self.dataset(2, 60, "102030")) == nil)
        #expect(IPTCRecord(iim: Self.dataset(2, 55, "20241301") + Self.dataset(2, 60, "102030")) == nil)
        #expect(IPTCRecord(iim: Self.dataset(2, 55, "20240501") + Self.dataset(2, 60, "252030")) == nil)
        // Lengths past the end, huge extended lengths and every cut end without a crash or a date
        // from outside the record.
        let huge: [UInt8] = [0x1C, 2, 55, 0x80, 0x04, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(IPTCRecord(iim: huge) == nil)
        #expect(IPTCRecord(iim: [0x1C, 2, 55, 0xFF, 0xFF] + Array("20240501".utf8)) == nil)
        let resources = other + iim
        for end in 0..<resources.count {
            #expect(IPTCRecord(imageResources: Array(resources[..<end])) == nil, "cut at \(end)")
        }
        #expect(IPTCRecord(imageResources: Array("8BIM".utf8) + [4, 4, 0xFF] + .be32(0xFFFF_FFFF)) == nil)
    }

    /// A JPEG with an APP13 record, its bytes flipped and cut everywhere in the segment: each
    /// inspection gives metadata or an error, never a crash or a date the record does not hold.
    @Test func damagedAPP13SegmentsOnlyLoseTheDate() throws {
        let good = Self.dataset(2, 55, "20240501") + Self.dataset(2, 60, "102030+0200")
        let resources = Array("8BIM".utf8) + [0x04, 0x04, 0, 0] + .be32(good.count) + good
        let payload = IPTCRecord.photoshopSignature + resources
        let segment: [UInt8] = [0xFF, 0xED] + .be16(payload.count + 2) + payload
        let plain = Corpus.bytes("corpus/jpeg-plain.jpg")
        let jpeg = Array(plain[..<2]) + segment + Array(plain[2...])
        #expect(try inspect(jpeg).get().captureDate == "2024-05-01T10:20:30+02:00")
        let digits = Set(Array("0123456789".utf8))
        for offset in 2..<(2 + segment.count) {
            for value: UInt8 in [0x00, 0x1C, 0x80, 0xFF] {
                var mutated = jpeg
                mutated[offset] = value
                // A date only from the record's own digits: the year 2024 stays unless a digit of it was hit.
                if case .success(let metadata) = inspect(mutated), let date = metadata.captureDate {
                    #expect(date.hasPrefix("2024") || digits.contains(jpeg[offset]), "\(offset): \(date)")
                }
            }
            #expect(throws: MediaInspectionError.self) { try inspect(Array(jpeg[..<offset])).get() }
        }
    }
}
