import Foundation
import Testing
@testable import AlbumKitMedia

/// An MPEG-4/QuickTime file is a video only when it has a video track, whatever its brand: ffmpeg
/// writes the audio-only files (the brands of `.m4a`, `.m4b`, `.3g2`, `.mp4`, `.mov`), ffprobe lists
/// their streams, and none is saved.
@Suite struct AudioOnlyMovieTests {
    static let sine = "sine=frequency=440:duration=1"

    @Test(arguments: [
        ("m4a, brand mp42", "a.m4a", ["-f", "mp4", "-brand", "mp42"]),
        ("mp4, brand isom", "a.mp4", ["-f", "mp4"]),
        ("m4b audiobook", "a.m4b", ["-f", "ipod", "-brand", "M4B "]),
        ("3g2 voice memo", "a.3g2", ["-f", "3g2", "-ar", "16000", "-ac", "1"]),
        ("QuickTime audio", "a.mov", ["-f", "mov"]),
    ])
    func audioOnlyIsNotMedia(_ label: String, _ name: String, _ options: [String]) throws {
        let bytes = try Decoders.ffmpeg(name, input: Self.sine, ["-c:a", "aac"] + options)
        let path = try Decoders.write(bytes, name: name)
        #expect(try Decoders.streams(path) == ["audio"], "\(label)")
        let result = inspect(path: path)
        #expect(result.error?.kind == .notMedia, "\(label): \(result)")
        #expect(result.error?.reason.contains("audio-only") == true, "\(label): \(result)")
    }

    @Test func coverArtDoesNotMakeAVideo() throws {
        // Given an AAC file with a JPEG cover, as music players write it (ffprobe: an attached picture)
        let audio = try Decoders.write(
            try Decoders.ffmpeg("a.m4a", input: Self.sine, ["-c:a", "aac", "-f", "ipod"]), name: "a.m4a")
        let cover = try Decoders.write(try Decoders.ffmpeg("c.jpg", ["-frames:v", "1"]), name: "c.jpg")
        let output = try Decoders.scratch().appendingPathComponent("covered.mp4").path
        let run = try Decoders.run(
            "ffmpeg",
            [
                "-v", "error", "-i", audio, "-i", cover, "-map", "0", "-map", "1", "-c", "copy", "-disposition:v",
                "attached_pic", "-f", "mp4", "-brand", "mp42", output,
            ])
        #expect(run.status == 0, "\(run.errors)")
        #expect(try Decoders.streams(output) == ["audio", "cover"])
        #expect(inspect(path: output).error?.kind == .notMedia)
    }

    @Test func aMovieWithSoundIsAVideo() throws {
        // The control: the same audio with a video track
        let path = try Decoders.scratch().appendingPathComponent("v.mp4").path
        let run = try Decoders.run(
            "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=5", "-f", "lavfi", "-i", Self.sine, "-t",
                "1",
                "-c:v", "mpeg4", "-c:a", "aac", "-brand", "mp42", path,
            ])
        #expect(run.status == 0, "\(run.errors)")
        let metadata = try inspect(path: path).get()
        #expect(metadata.kind == .video && metadata.width == 64 && metadata.height == 48)
    }

    @Test func chapterImagesDoNotMakeAVideo() throws {
        // An audiobook-like movie: a sound track and a video track the sound refers to as its chapter images
        var moov = Writers.moov(handlers: ["soun", "vide"], width: 300, height: 300)
        // tref/chap in the first track, pointing at track 2
        let chap = Writers.box("tref", Writers.box("chap", .be32(2)))
        let trak = try #require(moov.firstIndex(of: Array("trak".utf8))) - 4
        let trakSize = Int(moov.u32(trak))
        moov.insert(contentsOf: chap, at: trak + trakSize)
        moov.replaceSubrange(trak..<trak + 4, with: [UInt8].be32(trakSize + chap.count))
        moov.replaceSubrange(0..<4, with: [UInt8].be32(moov.count))
        let ftyp = Writers.box("ftyp", Array("mp42".utf8) + .be32(0) + Array("mp42isom".utf8))
        let result = inspect(ftyp + moov)
        #expect(result.error?.kind == .notMedia, "\(result)")
        // Without the reference the video track counts
        let plain = ftyp + Writers.moov(handlers: ["soun", "vide"], width: 300, height: 300)
        #expect(try inspect(plain).get().kind == .video)
    }
}
