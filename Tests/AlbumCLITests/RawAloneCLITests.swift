import Foundation
import AlbumTestSupport
import Testing

/// A RAW+JPEG pair whose JPEG is damaged: the intact raw is saved alone, and the JPEG's error
/// names it and says so (before, the raw stayed out, unnamed).
@Suite(.onThreadsOfTheirOwn) struct RawAloneCLITests {
    @Test(arguments: ["catalog", "folders"])
    func theRawOfADamagedPairIsSavedAlone(kind: String) throws {
        try CLI.withTemporaryDirectory { dir in
            let card = dir.appendingPathComponent("card")
            try FileManager.default.createDirectory(at: card, withIntermediateDirectories: true)
            let jpeg = try Data(contentsOf: CLI.examples.appendingPathComponent("harbour.jpg")).prefix(300)
            try jpeg.write(to: card.appendingPathComponent("IMG_0001.JPG"))
            let raw = CLI.packageRoot.appendingPathComponent("Tests/AlbumKitMediaTests/Fixtures/corpus/raw-canon.cr2")
            try FileManager.default.copyItem(at: raw, to: card.appendingPathComponent("IMG_0001.CR2"))
            let library =
                kind == "catalog"
                ? ["--library", dir.appendingPathComponent("L.albumlibrary").path]
                : ["--folders", "--library", dir.appendingPathComponent("Pictures").path]
            let run = try CLI.run(["import", "--album", "Trip", card.path] + library)
            #expect(run.status == 1, "the JPEG failed: \(run.stdout)\n\(run.stderr)")
            #expect(run.stderr.contains("IMG_0001.JPG"), "\(run.stderr)")
            #expect(run.stderr.contains("its raw IMG_0001.CR2 is saved alone"), "\(run.stderr)")
            #expect(run.lines.contains { $0.hasPrefix("saved ") && $0.contains("IMG_0001.CR2") }, "\(run.stdout)")
            let show = try CLI.run(["show", "Trip", "--json"] + library)
            let assets = (show.json() as? [[String: Any]]) ?? []
            #expect(assets.count == 1, "\(show.stdout)")
        }
    }
}
