import AlbumKitPreviews
import AlbumTestSupport
import Foundation
import Testing

/// A video's frames larger than 8K UHD (7 680 × 4 320 pixels) are refused before a frame is
/// decoded: a poster frame is one small picture, and a hostile clip must not make AlbumKit
/// allocate gigabytes. The error says why, naming the frame's size.
@Suite struct PosterFrameLimitTests {
    @Test func framesLargerThan8KAreRefusedSayingTheirSize() throws {
        let fixture = try PreviewFixture()
        let (width, height) = (7_712, 4_352)
        #expect(width * height > PreviewRenderer.largestVideoFrame)
        try PosterFrameTests.ffmpeg(
            [
                "-f", "lavfi", "-i", "color=c=red:s=\(width)x\(height):r=1:d=1", "-frames:v", "1",
                "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "huge.mp4",
            ], in: fixture)
        do {
            let made = try PosterFrameTests.poster("huge.mp4", in: fixture)
            Issue.record("a \(width) × \(height) clip gave a poster of \(made.pixelWidth) × \(made.pixelHeight)")
        } catch let error as PreviewError {
            #expect(error.reason.contains("\(width) × \(height) pixels"), "\(error.reason)")
        }
    }

    @Test func framesOf8KAreShown() throws {
        let fixture = try PreviewFixture()
        try PosterFrameTests.ffmpeg(
            [
                "-f", "lavfi", "-i", "color=c=red:s=7680x4320:r=1:d=1", "-frames:v", "1",
                "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "8k.mp4",
            ], in: fixture)
        let made = try PosterFrameTests.poster("8k.mp4", in: fixture)
        #expect(made.longestSide == 256)
    }
}
