import AlbumKitPreviews
import AlbumTestSupport
import Foundation
import Testing

/// A video's poster frame, decoded by FFmpeg's libraries: videos made at test time by the `ffmpeg`
/// program, its own frames (read by Pillow) the oracle for size, orientation and colour.
@Suite(.onThreadsOfTheirOwn) struct PosterFrameTests {
    /// Runs `ffmpeg ARGUMENTS` in the fixture's folder; the test ends when it is not installed.
    static func ffmpeg(_ arguments: [String], in fixture: PreviewFixture) throws {
        let ffmpeg = try ExternalTool.require("ffmpeg")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-loglevel", "error", "-y"] + arguments
        process.currentDirectoryURL = fixture.folder
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "ffmpeg \(arguments.joined(separator: " ")): \(text)")
    }

    /// A red picture with a blue block in its top-left corner (a quarter of each side), `seconds`
    /// long: which way it is turned shows where the block is.
    static func cornerVideo(
        _ name: String, width: Int, height: Int, seconds: Double, keyframeEvery frames: Int = 250,
        in fixture: PreviewFixture
    ) throws {
        try ffmpeg(
            [
                "-f", "lavfi", "-i",
                "color=c=red:s=\(width)x\(height):r=30:d=\(seconds),"
                    + "drawbox=x=0:y=0:w=\(width / 4):h=\(height / 4):color=blue:t=fill",
                "-c:v", "libx264", "-g", String(frames), "-pix_fmt", "yuv420p", name,
            ], in: fixture)
    }

    /// The poster frame of the file `name`, read through an open descriptor as the libraries do.
    static func poster(_ name: String, in fixture: PreviewFixture, maxPixelSize: Int = 256) throws -> RenderedPreview {
        let renderer = try PreviewFixture.renderer()
        try ExternalTool.requireFFmpegLibraries()
        let handle = try FileHandle(forReadingFrom: fixture.folder.appendingPathComponent(name))
        defer { try? handle.close() }  // read-only: closing cannot lose anything
        return try renderer.posterFrame(.descriptor(handle.fileDescriptor), maxPixelSize: maxPixelSize)
    }

    /// How far `ours` is from `oracle` (a PNG ffmpeg wrote), both read by Pillow, the oracle scaled
    /// to our size: the mean difference of their pixels (0–255), and each one's mean colour.
    static func difference(_ ours: RenderedPreview, oracle: String, in fixture: PreviewFixture) throws -> Double {
        try Data(ours.bytes).write(to: fixture.folder.appendingPathComponent("ours.jpg"))
        let out = try fixture.pillow(
            """
            from PIL import Image, ImageChops, ImageStat
            a = Image.open('ours.jpg').convert('RGB')
            b = Image.open('\(oracle)').convert('RGB').resize(a.size, Image.BILINEAR)
            print(sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3)
            """)
        return Double(out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .infinity
    }

    @Test func aPortraitPhoneVideoIsTurnedAsFFmpegTurnsIt() throws {
        let fixture = try PreviewFixture()
        try Self.cornerVideo("landscape.mp4", width: 640, height: 360, seconds: 3, in: fixture)
        // A phone held upright stores its frames sideways with a display matrix saying how to turn them.
        try Self.ffmpeg(
            ["-i", "landscape.mp4", "-c", "copy", "-metadata:s:v:0", "rotate=90", "portrait.mp4"], in: fixture)
        try Self.ffmpeg(["-i", "portrait.mp4", "-frames:v", "1", "oracle.png"], in: fixture)
        let oracleSize = try fixture.pillow("from PIL import Image\nprint(*Image.open('oracle.png').size)")
        #expect(oracleSize.trimmingCharacters(in: .whitespacesAndNewlines) == "360 640")

        let poster = try Self.poster("portrait.mp4", in: fixture)
        #expect((poster.pixelWidth, poster.pixelHeight) == (144, 256) && poster.format == .jpeg)
        let difference = try Self.difference(poster, oracle: "oracle.png", in: fixture)
        #expect(difference < 8, "mean difference \(difference) from ffmpeg's own frame")

        // Unturned, the same file's frame would be 256 × 144: the landscape original is.
        let landscape = try Self.poster("landscape.mp4", in: fixture)
        #expect((landscape.pixelWidth, landscape.pixelHeight) == (256, 144))
        try Self.ffmpeg(["-i", "landscape.mp4", "-frames:v", "1", "landscape.png"], in: fixture)
        #expect(try Self.difference(landscape, oracle: "landscape.png", in: fixture) < 8)
    }

    @Test func aShortClipAndAVideoInMemoryGiveTheirFrames() throws {
        let fixture = try PreviewFixture()
        // Five frames: shorter than the second a poster frame is taken at.
        try Self.cornerVideo("short.mp4", width: 320, height: 240, seconds: 5.0 / 30, in: fixture)
        let poster = try Self.poster("short.mp4", in: fixture)
        #expect((poster.pixelWidth, poster.pixelHeight) == (256, 192))
        try Self.ffmpeg(["-i", "short.mp4", "-frames:v", "1", "short.png"], in: fixture)
        #expect(try Self.difference(poster, oracle: "short.png", in: fixture) < 8)

        // The same bytes held in memory (an in-memory or shared library's original), never enlarged.
        let bytes = try [UInt8](Data(contentsOf: fixture.folder.appendingPathComponent("short.mp4")))
        let fromMemory = try PreviewFixture.renderer().posterFrame(.bytes(bytes), maxPixelSize: 1024)
        #expect((fromMemory.pixelWidth, fromMemory.pixelHeight) == (320, 240))
    }

    @Test func widePixelsAreShownWide() throws {
        let fixture = try PreviewFixture()
        try Self.ffmpeg(
            [
                "-f", "lavfi", "-i", "color=c=green:s=320x240:r=25:d=1", "-vf", "setsar=2/1", "-c:v", "libx264",
                "-pix_fmt", "yuv420p", "anamorphic.mp4",
            ], in: fixture)
        let poster = try Self.poster("anamorphic.mp4", in: fixture)
        #expect((poster.pixelWidth, poster.pixelHeight) == (256, 96))
    }

    @Test func aCutVideoShowsWhatDecodesOrSaysItCannotBeRead() throws {
        let fixture = try PreviewFixture()
        // A keyframe every third of a second: the half kept holds several.
        try Self.cornerVideo("whole.mp4", width: 320, height: 240, seconds: 4, keyframeEvery: 10, in: fixture)
        // With its index first (as phones write), a file cut in half still has frames to show: the
        // one a second in is past the cut, so the first one is shown.
        try Self.ffmpeg(["-i", "whole.mp4", "-c", "copy", "-movflags", "+faststart", "faststart.mp4"], in: fixture)
        let faststart = try Data(contentsOf: fixture.folder.appendingPathComponent("faststart.mp4"))
        try faststart.prefix(faststart.count / 2).write(to: fixture.folder.appendingPathComponent("cut-front.mp4"))
        let poster = try Self.poster("cut-front.mp4", in: fixture)
        #expect((poster.pixelWidth, poster.pixelHeight) == (256, 192))
        try Self.ffmpeg(["-i", "whole.mp4", "-frames:v", "1", "whole.png"], in: fixture)
        #expect(try Self.difference(poster, oracle: "whole.png", in: fixture) < 8)

        // With its index last (ffmpeg's default), the half kept has none: an error, not a hang or a crash.
        let whole = try Data(contentsOf: fixture.folder.appendingPathComponent("whole.mp4"))
        try whole.prefix(whole.count / 2).write(to: fixture.folder.appendingPathComponent("cut-back.mp4"))
        #expect {
            try Self.poster("cut-back.mp4", in: fixture)
        } throws: { error in
            (error as? PreviewError)?.kind == .undecodable
                && (error as? PreviewError)?.reason.contains("not a video FFmpeg can read") == true
        }
    }

    @Test func whatIsNotAVideoIsRefusedWithItsReason() throws {
        let fixture = try PreviewFixture()
        try ExternalTool.requireFFmpegLibraries()
        let renderer = try PreviewFixture.renderer()
        try fixture.pillow("from PIL import Image\nImage.new('RGB', (64, 48), (1, 2, 3)).save('photo.jpg')")
        let photo = try [UInt8](Data(contentsOf: fixture.folder.appendingPathComponent("photo.jpg")))
        // A JPEG (FFmpeg could read it as a one-frame video, but its image demuxers are not allowed),
        // text, random bytes, nothing.
        let random = (0..<65536).map { _ in UInt8.random(in: 0...255) }
        for bytes in [photo, Array("not a video at all\n".utf8), random] {
            #expect {
                try renderer.posterFrame(.bytes(bytes), maxPixelSize: 256)
            } throws: { error in
                (error as? PreviewError)?.kind == .undecodable
            }
        }
        #expect(throws: PreviewError.self) { try renderer.posterFrame(.bytes([]), maxPixelSize: 256) }
        #expect(throws: PreviewError.self) { try renderer.posterFrame(.bytes(photo), maxPixelSize: 0) }
    }

    @Test func aTurnAndAFlipBecomeAnEXIFOrientation() {
        #expect(PreviewRenderer.exifOrientation(rotation: 0, mirrored: false) == 1)
        #expect(PreviewRenderer.exifOrientation(rotation: 90, mirrored: false) == 6)
        #expect(PreviewRenderer.exifOrientation(rotation: -90, mirrored: false) == 8)
        #expect(PreviewRenderer.exifOrientation(rotation: 540, mirrored: false) == 3)
        #expect(PreviewRenderer.exifOrientation(rotation: 0, mirrored: true) == 2)
        #expect(PreviewRenderer.exifOrientation(rotation: 90, mirrored: true) == 7)
        #expect(PreviewRenderer.exifOrientation(rotation: 270, mirrored: true) == 5)
    }
}
