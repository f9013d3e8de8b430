import Foundation
import AlbumTestSupport
import Testing

/// A photo a camera did not finish writing (0 bytes, or cut short) is a photo lost: named with its
/// cause and counted as failed, without `-v`, never folded into "not photos or videos".
@Suite(.onThreadsOfTheirOwn) struct UnfinishedFileCLITests {
    @Test(arguments: ["catalog", "folders"])
    func emptyAndCutShortPhotosOnACardAreFailuresNamedWithTheirCause(kind: String) throws {
        try CLI.withTemporaryDirectory { dir in
            let folder = dir.appendingPathComponent("card/DCIM/100CANON")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let photo = try Data(contentsOf: CLI.examples.appendingPathComponent("harbour.jpg"))
            try photo.write(to: folder.appendingPathComponent("IMG_0201.JPG"))
            try Data().write(to: folder.appendingPathComponent("IMG_0203.JPG"))
            try photo.prefix(photo.count / 2).write(to: folder.appendingPathComponent("IMG_0204.JPG"))
            try Data().write(to: folder.appendingPathComponent("MVI_0205.MOV"))
            // Not named as photos: skipped as before, empty or not.
            try Data("trip notes".utf8).write(to: folder.appendingPathComponent("notes.txt"))
            try Data().write(to: folder.appendingPathComponent("EMPTY.TXT"))
            let library = CompanionCLITests.library(kind, in: dir)

            let dry = try CLI.run(["import", dir.appendingPathComponent("card").path, "-n"] + library)
            #expect(dry.stderr.contains("IMG_0203.JPG: empty file (0 bytes)"), "\(dry.stderr)")

            let run = try CLI.run(["import", dir.appendingPathComponent("card").path] + library)
            #expect(run.status == 1, "a photo lost is a failure: \(run.stderr)")
            let lines = run.stderr.split(separator: "\n").map(String.init)
            #expect(
                lines.contains { $0.hasPrefix("album: ") && $0.contains("IMG_0203.JPG: empty file (0 bytes)") },
                "\(run.stderr)")
            #expect(lines.contains { $0.contains("MVI_0205.MOV: empty file (0 bytes)") }, "\(run.stderr)")
            #expect(
                lines.contains {
                    $0.contains(
                        "IMG_0204.JPG is cut short after \(photo.count / 2) bytes: JPEG ends before the image does")
                }, "\(run.stderr)")
            #expect(
                lines.last?.contains("1 saved, 2 skipped (not photos or videos), 3 failed") == true, "\(run.stderr)")
            #expect(!run.stderr.contains("notes.txt"), "skipped files are listed with -v only: \(run.stderr)")

            let json = try CLI.run(["import", dir.appendingPathComponent("card").path, "--json"] + library)
            let empty = json.jsonLines().first { ($0["file"] as? String)?.hasSuffix("IMG_0203.JPG") == true }
            #expect((empty?["error"] as? [String: Any])?["code"] as? String == "corruptMedia", "\(json.stdout)")
        }
    }

    /// A card's files cut short say how many bytes are there, and of how many where the container
    /// says: a movie's box, a PNG's chunk, a JPEG's segment; a JPEG cut in its image data ends
    /// before the image does.
    @Test func cutShortFilesSayHowManyBytesOfHowManyAreThere() throws {
        try CLI.withTemporaryDirectory { dir in
            let card = dir.appendingPathComponent("card")
            try FileManager.default.createDirectory(at: card, withIntermediateDirectories: true)
            let movie = try Data(contentsOf: CLI.examples.appendingPathComponent("clip.mp4"))
            let png = try Data(contentsOf: CLI.examples.appendingPathComponent("garden.png"))
            let jpeg = try Data(contentsOf: CLI.examples.appendingPathComponent("harbour.jpg"))
            try movie.prefix(movie.count / 2).write(to: card.appendingPathComponent("MVI_0001.MP4"))
            try png.prefix(20_000).write(to: card.appendingPathComponent("GARDEN.PNG"))
            try jpeg.prefix(300).write(to: card.appendingPathComponent("IMG_0001.JPG"))
            let library = ["--library", dir.appendingPathComponent("L.albumlibrary").path]
            let run = try CLI.run(library + ["import", card.path])
            #expect(run.status == 1)
            let shown = card.path + "/"
            #expect(
                run.stderr.contains(
                    "\(shown)MVI_0001.MP4 is cut short at \(movie.count / 2) of at least \(movie.count) bytes: MP4 box 'mdat'"
                ), "\(run.stderr)")
            #expect(run.stderr.contains("\(shown)GARDEN.PNG is cut short at 20000 of at least "), "\(run.stderr)")
            #expect(run.stderr.contains("\(shown)IMG_0001.JPG is cut short at 300 of at least "), "\(run.stderr)")
            #expect(run.stderr.contains("album: 0 saved, 3 failed"), "\(run.stderr)")
        }
    }
}
