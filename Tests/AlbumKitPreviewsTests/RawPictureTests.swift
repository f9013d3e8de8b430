import AlbumKitPreviews
import AlbumTestSupport
import Foundation
import Testing

#if os(Linux)
    import CLibRaw
#endif

/// The picture of a raw file that stores no preview, developed by LibRaw from its sensor data: DNGs
/// written by the test (``MosaicDNG``), `dcraw_emu` (LibRaw's own program, with the camera's white
/// balance) the oracle for size, orientation and colour, read by Pillow.
@Suite(.onThreadsOfTheirOwn) struct RawPictureTests {
    /// The renderer with LibRaw loaded, or the test ends (skipped outside CI when libraw20 is missing).
    static func renderer() throws -> PreviewRenderer {
        let renderer = try PreviewFixture.renderer()
        let loaded = Result { () throws(PreviewError) in try PreviewRenderer.loadRawDecoder() }
        // Only whether it loaded matters here: the reason is LibRaw's own (`libraw20` is named below).
        try ExternalTool.requireAvailable(
            (try? loaded.get()) != nil, "LibRaw", install: "apt-get install \(PreviewRenderer.rawDecoderPackage)")
        return renderer
    }

    /// The picture of the file `name`, read through an open descriptor as the libraries do.
    static func picture(_ name: String, in fixture: PreviewFixture, maxPixelSize: Int) throws -> RenderedPreview {
        let renderer = try renderer()
        let handle = try FileHandle(forReadingFrom: fixture.folder.appendingPathComponent(name))
        defer { try? handle.close() }  // read-only: closing cannot lose anything
        return try renderer.rawPicture(.descriptor(handle.fileDescriptor), maxPixelSize: maxPixelSize)
    }

    /// Runs `dcraw_emu -w -g 2.4 12.92 ARGUMENTS NAME` (the camera's white balance, sRGB's tone
    /// curve), which writes NAME.ppm.
    static func dcrawEmu(_ name: String, _ arguments: [String] = [], in fixture: PreviewFixture) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try ExternalTool.require("dcraw_emu"))
        process.arguments = ["-w", "-g", "2.4", "12.92"] + arguments + [name]
        process.currentDirectoryURL = fixture.folder
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "dcraw_emu \(name)")
    }

    /// The oracle's size, the mean difference of our pixels from it (0–255, the oracle scaled to our
    /// size) and the colours of our picture's top-left and top-right corners.
    static func compared(_ ours: RenderedPreview, oracle: String, in fixture: PreviewFixture) throws -> String {
        try Data(ours.bytes).write(to: fixture.folder.appendingPathComponent("ours.jpg"))
        return try fixture.pillow(
            """
            from PIL import Image, ImageChops, ImageStat
            a = Image.open('ours.jpg').convert('RGB')
            o = Image.open('\(oracle)').convert('RGB')
            b = o.resize(a.size, Image.BILINEAR)
            w, h = a.size
            print(*o.size, round(sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3, 1))
            print(*a.getpixel((w // 16, h // 16)), *a.getpixel((w - 1 - w // 16, h // 16)))
            """
        ).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aDNGWithoutAPreviewLooksAsDcrawEmuDevelopsIt() throws {
        let folder = try PreviewFixture()
        try Data(MosaicDNG(width: 64, height: 48).bytes()).write(to: folder.folder.appendingPathComponent("plain.dng"))
        // Half size (32 × 24) is smaller than asked for: the whole sensor, never enlarged.
        let picture = try Self.picture("plain.dng", in: folder, maxPixelSize: 256)
        #expect((picture.pixelWidth, picture.pixelHeight, picture.format) == (64, 48, .jpeg))
        try Self.dcrawEmu("plain.dng", in: folder)
        let lines = try Self.compared(picture, oracle: "plain.dng.ppm", in: folder).split(separator: "\n")
        let summary = lines.first.map { $0.split(separator: " ").map(String.init) } ?? []
        #expect(summary.prefix(2) == ["64", "48"], "dcraw_emu's size: \(lines)")
        #expect((Double(summary.last ?? "") ?? .infinity) < 6, "mean difference from dcraw_emu's: \(lines)")
        // Blue in the top-left corner, red in the top-right: as the sensor saw it (orientation 1).
        let corners = (lines.last ?? "").split(separator: " ").compactMap { Int($0) }
        #expect(corners.count == 6 && corners[2] > corners[0] + 100 && corners[3] > corners[5] + 100, "\(lines)")

        // Fitted when smaller is asked for.
        let small = try Self.picture("plain.dng", in: folder, maxPixelSize: 32)
        #expect((small.pixelWidth, small.pixelHeight) == (32, 24))
    }

    @Test func orientationSixIsTurnedAsLibRawTurnsIt() throws {
        let folder = try PreviewFixture()
        try Data(MosaicDNG(width: 64, height: 48, orientation: 6).bytes())
            .write(to: folder.folder.appendingPathComponent("turned.dng"))
        let picture = try Self.picture("turned.dng", in: folder, maxPixelSize: 256)
        #expect((picture.pixelWidth, picture.pixelHeight) == (48, 64))
        try Self.dcrawEmu("turned.dng", in: folder)
        let lines = try Self.compared(picture, oracle: "turned.dng.ppm", in: folder).split(separator: "\n")
        let summary = lines.first.map { $0.split(separator: " ").map(String.init) } ?? []
        #expect(summary.prefix(2) == ["48", "64"], "dcraw_emu's size: \(lines)")
        #expect((Double(summary.last ?? "") ?? .infinity) < 6, "mean difference from dcraw_emu's: \(lines)")
        // Turned a quarter clockwise: the sensor's top-left block is at the top right.
        let corners = (lines.last ?? "").split(separator: " ").compactMap { Int($0) }
        #expect(corners.count == 6 && corners[0] > corners[2] + 100 && corners[5] > corners[3] + 100, "\(lines)")
    }

    @Test func aLargerRawIsDevelopedAtHalfSizeAsDcrawEmuHalvesIt() throws {
        let folder = try PreviewFixture()
        try Data(MosaicDNG(width: 1200, height: 800).bytes()).write(to: folder.folder.appendingPathComponent("big.dng"))
        let picture = try Self.picture("big.dng", in: folder, maxPixelSize: 512)
        #expect((picture.pixelWidth, picture.pixelHeight) == (512, 341))
        try Self.dcrawEmu("big.dng", ["-h"], in: folder)
        let lines = try Self.compared(picture, oracle: "big.dng.ppm", in: folder).split(separator: "\n")
        let summary = lines.first.map { $0.split(separator: " ").map(String.init) } ?? []
        #expect(summary.prefix(2) == ["600", "400"], "dcraw_emu -h's size: \(lines)")
        #expect((Double(summary.last ?? "") ?? .infinity) < 6, "mean difference from dcraw_emu -h's: \(lines)")
    }

    @Test func forgedAndDamagedRawsFailAtOnceWithTheirCause() throws {
        let renderer = try Self.renderer()
        let whole = MosaicDNG(width: 1200, height: 800).bytes()
        func failure(_ bytes: [UInt8]) -> (reason: String, seconds: Double) {
            let start = Date()
            do {
                let made = try renderer.rawPicture(.bytes(bytes), maxPixelSize: 256)
                return ("made \(made.pixelWidth) × \(made.pixelHeight)", Date().timeIntervalSince(start))
            } catch { return (error.reason, Date().timeIntervalSince(start)) }
        }
        /// `whole` with IFD0's width and height saying `side` and, when `compression` is given, its
        /// Compression tag changed (the value fields of its second, third and fifth entries).
        func forging(side: Int, compression: Int? = nil) -> [UInt8] {
            var bytes = whole
            for entry in [1, 2] {
                let field = 8 + 2 + 12 * entry + 8
                bytes[field..<field + 4] = [UInt8(side & 0xFF), UInt8(side >> 8 & 0xFF), 0, 0]
            }
            if let compression { bytes[8 + 2 + 12 * 4 + 8..<8 + 2 + 12 * 4 + 10] = [UInt8(compression), 0] }
            return bytes
        }
        // 65 000 × 65 000 pixels (4 gigapixels) claimed over the same few bytes: LibRaw sees that
        // uncompressed data that large is not there.
        let forged = failure(forging(side: 65000))
        #expect(forged.reason.contains("not a raw file LibRaw can read"), "\(forged.reason)")
        #expect(forged.seconds < 10)
        // 12 000 × 12 000 (144 megapixels) of lossless JPEG data, whose size LibRaw cannot check
        // before decoding (it would take about 290 MB): refused by AlbumKit's own bound first.
        let compressed = failure(forging(side: 12000, compression: 7))
        #expect(compressed.reason.contains("12000 × 12000 pixels, more than AlbumKit decodes"), "\(compressed.reason)")
        #expect(compressed.seconds < 10)
        // Cut short in the middle of its sensor data.
        let cut = failure(Array(whole.prefix(whole.count / 2)))
        #expect(cut.reason.contains("sensor data cannot be read"), "\(cut.reason)")
        #expect(cut.seconds < 10)
        // Not a raw file at all.
        let noise = failure(RandomBytes.make(100_000))
        #expect(noise.reason.contains("not a raw file LibRaw can read"), "\(noise.reason)")
        #expect(failure([0xFF, 0xD8, 0xFF]).reason.contains("not a raw file"))
    }

    /// The time bound stops LibRaw at its next step: with no time at all, the first step stops it,
    /// and the reason says so.
    @Test func aDecodePastItsTimeIsStopped() throws {
        #if os(Linux)
            _ = try Self.renderer()
            let bytes = MosaicDNG(width: 1200, height: 800).bytes()
            var picture = albumkit_raw_picture()
            var error = [CChar](repeating: 0, count: 512)
            let result = bytes.withUnsafeBytes { buffer in
                albumkit_libraw_decode(
                    -1, buffer.baseAddress, buffer.count, 1, 1 << 30, 1 << 30, 0, &picture, &error, error.count)
            }
            let reason = String(decoding: error.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self)
            #expect(result == -1 && picture.pixels == nil)
            #expect(reason.contains("stopped after 0 s"), "\(reason)")
            // With time, the same bytes develop.
            let developed = bytes.withUnsafeBytes { buffer in
                albumkit_libraw_decode(
                    -1, buffer.baseAddress, buffer.count, 1, 1 << 30, 1 << 30, 60, &picture, &error, error.count)
            }
            #expect(developed == 0 && (picture.width, picture.height) == (600, 400))
            albumkit_libraw_release(&picture)
        #endif
    }
}
