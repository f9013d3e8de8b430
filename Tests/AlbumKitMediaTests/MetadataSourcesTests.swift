import Foundation
import Testing
@testable import AlbumKitMedia

/// Dates and cameras wherever files write them — XMP in JPEG, PNG, TIFF and MP4, IFD0,
/// QuickTime user data and keys, AVI `IDIT` — each equal to exiftool's reading of the same file
/// (exiftool writes the XMP here; ffmpeg the QuickTime tags). Also the animated flag.
@Suite struct MetadataSourcesTests {
    /// exiftool's `2024:05:01 10:20:30+02:00` as AlbumKit writes it.
    static func iso(_ exiftool: Any?) -> String? {
        guard let text = exiftool as? String, text.count >= 19 else { return nil }
        var c = Array(text)
        c[4] = "-"
        c[7] = "-"
        c[10] = "T"
        let date = String(c)
        // exiftool prints fractional seconds when the file has them; AlbumKit keeps whole seconds.
        if let dot = date.firstIndex(of: "."), date.distance(from: date.startIndex, to: dot) == 19 {
            let zone = date[dot...].drop { $0 == "." || $0.isNumber }
            return String(date[..<dot]) + zone
        }
        return date
    }

    /// `bytes` after exiftool wrote `tags` to them.
    static func written(_ bytes: [UInt8], name: String, _ tags: [String]) throws -> String {
        let path = try Decoders.write(bytes, name: name)
        let run = try Decoders.run("exiftool", ["-q", "-overwrite_original"] + tags + [path])
        #expect(run.status == 0, "\(run.errors)")
        return path
    }

    static let xmpTags = [
        "-XMP-exif:DateTimeOriginal=2024:05:01 10:20:30+02:00", "-XMP-tiff:Make=FUJIFILM", "-XMP-tiff:Model=X-T3",
    ]

    @Test(arguments: ["jpg", "png", "tif"])
    func xmpOnlyPhotoGivesDateAndCamera(_ ext: String) throws {
        // Given a picture whose only metadata is XMP (as Lightroom exports write it)
        let base = try Decoders.ffmpeg("base.\(ext)", ["-frames:v", "1"])
        let path = try Self.written(base, name: "xmp.\(ext)", Self.xmpTags)
        let exif = try Decoders.exiftool(path)
        #expect(exif["ExifIFD:DateTimeOriginal"] == nil)
        // Then AlbumKit reads what exiftool reads
        let metadata = try inspect(path: path).get()
        #expect(metadata.captureDate == Self.iso(exif["XMP-exif:DateTimeOriginal"]))
        #expect(metadata.captureDate == "2024-05-01T10:20:30+02:00")
        #expect(metadata.make == exif["XMP-tiff:Make"] as? String)
        #expect(metadata.model == exif["XMP-tiff:Model"] as? String)
        #expect(metadata.model == "X-T3")
    }

    @Test func exifComesBeforeXMP() throws {
        // Given a JPEG whose EXIF and XMP disagree
        let base = try Decoders.ffmpeg("base.jpg", ["-frames:v", "1"])
        let path = try Self.written(
            base, name: "both.jpg",
            [
                "-ExifIFD:DateTimeOriginal=2023:01:02 03:04:05", "-IFD0:Make=Canon",
                "-XMP-photoshop:DateCreated=2024:05:01 10:20:30",
            ]
                + Self.xmpTags.dropFirst())
        // Then the EXIF values win, as in exiftool's preferred (EXIF) group
        let exif = try Decoders.exiftool(path, ["-DateTimeOriginal", "-Make", "-Model"])
        let metadata = try inspect(path: path).get()
        #expect(metadata.captureDate == Self.iso(exif["ExifIFD:DateTimeOriginal"]))
        #expect(metadata.make == "Canon" && metadata.make == exif["IFD0:Make"] as? String)
        #expect(metadata.model == "X-T3")  // only in XMP
    }

    @Test func dateTimeOriginalInIFD0() throws {
        // Given a TIFF whose DateTimeOriginal is in IFD0 (no EXIF directory), written byte by byte
        let bytes = Writers.tiff([
            .long(0x0100, 4), .long(0x0101, 2), .short(0x0102, 8), .short(0x0106, 1), .long(0x0111, 0),
            .long(0x0116, 2), .long(0x0117, 8), .ascii(0x9003, "2022:02:03 04:05:06"),
        ])
        var file = bytes
        let stripOffset = file.count
        file += [UInt8](repeating: 0x80, count: 8)
        // patch StripOffsets (0x0111) to where the pixels are
        let e = try #require((0..<8).map { 10 + 12 * $0 }.first { file.u16($0) == 0x0111 })
        file.replaceSubrange(e + 8..<e + 12, with: [UInt8].be32(stripOffset))
        let path = try Decoders.write(file, name: "ifd0.tif")
        #expect(try Decoders.run("tiffinfo", ["-D", path]).status == 0)
        let exif = try Decoders.exiftool(path)
        let metadata = try inspect(path: path).get()
        #expect(metadata.captureDate == Self.iso(exif["IFD0:DateTimeOriginal"]))
        #expect(metadata.captureDate == "2022-02-03T04:05:06")
    }

    @Test func mp4WithXMPGivesDateAndCamera() throws {
        let movie = try Decoders.ffmpeg("v.mp4", ["-t", "1", "-c:v", "mpeg4"])
        let path = try Self.written(
            movie, name: "xmp.mp4", ["-XMP-xmp:CreateDate=2024:05:01 10:20:30+02:00", "-XMP-tiff:Make=Canon"])
        let exif = try Decoders.exiftool(path)
        let metadata = try inspect(path: path).get()
        #expect(metadata.captureDate == Self.iso(exif["XMP-xmp:CreateDate"]))
        #expect(metadata.make == exif["XMP-tiff:Make"] as? String)
        #expect(metadata.make == "Canon")
    }

    @Test func quickTimeUserDataAndKeys() throws {
        // ffmpeg writes ©mak/©mod/©day (user data) and, with use_metadata_tags, Apple's keys
        let userData = try Decoders.ffmpeg(
            "u.mov",
            [
                "-t", "1", "-c:v", "mpeg4", "-f", "mov", "-metadata", "make=Canon", "-metadata", "model=EOS R5",
                "-metadata", "date=2024-05-01T10:20:30+0200",
            ])
        let keys = try Decoders.ffmpeg(
            "k.mov",
            [
                "-t", "1", "-c:v", "mpeg4", "-f", "mov", "-movflags", "use_metadata_tags", "-metadata",
                "com.apple.quicktime.make=Apple", "-metadata", "com.apple.quicktime.model=iPhone 15", "-metadata",
                "com.apple.quicktime.creationdate=2023-07-08T09:10:11-0500", "-metadata",
                "com.apple.quicktime.location.ISO6709=+48.8577+002.2950+035.000/",
            ])
        for (bytes, group, dateTag) in [
            (userData, "UserData", "UserData:ContentCreateDate"), (keys, "Keys", "Keys:CreationDate"),
        ] {
            let path = try Decoders.write(bytes, name: "\(group).mov")
            let exif = try Decoders.exiftool(path)
            let metadata = try inspect(path: path).get()
            #expect(metadata.make == exif["\(group):Make"] as? String && metadata.make != nil, "\(group)")
            #expect(metadata.model == exif["\(group):Model"] as? String && metadata.model != nil, "\(group)")
            #expect(metadata.captureDate == Self.iso(exif[dateTag]) && metadata.captureDate != nil, "\(group) \(exif)")
            if group == "Keys" {
                let latitude = try #require(exif["Composite:GPSLatitude"] as? Double)
                let longitude = try #require(exif["Composite:GPSLongitude"] as? Double)
                #expect(
                    abs((metadata.latitude ?? 0) - latitude) < 1e-6 && abs((metadata.longitude ?? 0) - longitude) < 1e-6
                )
                #expect(metadata.altitude == exif["Composite:GPSAltitude"] as? Double)
            }
        }
    }

    @Test func aviDateFromIDIT() throws {
        let avi = try Decoders.ffmpeg("v.avi", ["-t", "1", "-c:v", "mpeg4"])
        let path = try Decoders.write(Writers.withIDIT(avi, date: "Wed May 01 10:20:30 2024"), name: "idit.avi")
        #expect(try Decoders.ffmpegDecodes(path))
        let exif = try Decoders.exiftool(path)
        let metadata = try inspect(path: path).get()
        #expect(metadata.captureDate == Self.iso(exif["RIFF:DateTimeOriginal"]))
        #expect(metadata.captureDate == "2024-05-01T10:20:30")
    }

    @Test(arguments: [
        ("gif", [] as [String], true), ("webp", ["-c:v", "libwebp_anim", "-loop", "0"], true),
        ("apng", ["-f", "apng"], true), ("png", ["-frames:v", "1"], false), ("gif", ["-frames:v", "1"], false),
    ])
    func animatedStillsAreFlaggedAndStayPhotos(_ ext: String, _ options: [String], _ animated: Bool) throws {
        let bytes = try Decoders.ffmpeg("a.\(ext == "apng" ? "png" : ext)", ["-t", "1"] + options)
        let path = try Decoders.write(bytes, name: "a.\(ext)")
        let frames = try Decoders.exiftool(path)
        let metadata = try inspect(path: path).get()
        #expect(metadata.kind == .photo && metadata.isAnimated == animated, "\(ext) \(frames)")
        #expect(metadata.width == 64 && metadata.height == 48)
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(metadata)) as? [String: Any]
        #expect((json?["animated"] as? Bool) == (animated ? true : nil))
    }

    @Test func avifSequenceIsAnAnimatedPhoto() throws {
        let metadata = try inspect(Writers.avifSequence(width: 40, height: 30)).get()
        #expect(metadata.format == .avif && metadata.kind == .photo && metadata.isAnimated)
        #expect(metadata.width == 40 && metadata.height == 30 && metadata.duration == nil)
    }

    @Test func warningsAndTheFlagRoundTripAsJSON() throws {
        var metadata = MediaMetadata(format: .gif)
        metadata.isAnimated = true
        metadata.warnings = ["GIF has no trailer"]
        let data = try JSONEncoder().encode(metadata)
        #expect(try JSONDecoder().decode(MediaMetadata.self, from: data) == metadata)
        let plain = try JSONSerialization.jsonObject(with: JSONEncoder().encode(MediaMetadata(format: .gif)))
        #expect(Set((plain as? [String: Any])?.keys.map { $0 } ?? []) == ["kind", "format"])
    }
}
