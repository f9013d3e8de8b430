import Foundation
import Testing

/// A photo a camera did not finish writing (0 bytes, or cut short) is a photo lost: named with its
/// cause and counted as failed, without `-v`, never folded into "not photos or videos".
@Suite struct UnfinishedFileCLITests {
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
                lines.contains { $0.contains("IMG_0204.JPG is damaged") && $0.contains("cut short") }, "\(run.stderr)")
            #expect(
                lines.last?.contains("1 saved, 2 skipped (not photos or videos), 3 failed") == true, "\(run.stderr)")
            #expect(!run.stderr.contains("notes.txt"), "skipped files are listed with -v only: \(run.stderr)")

            let json = try CLI.run(["import", dir.appendingPathComponent("card").path, "--json"] + library)
            let empty = json.jsonLines().first { ($0["file"] as? String)?.hasSuffix("IMG_0203.JPG") == true }
            #expect((empty?["error"] as? [String: Any])?["code"] as? String == "corruptMedia", "\(json.stdout)")
        }
    }
}
