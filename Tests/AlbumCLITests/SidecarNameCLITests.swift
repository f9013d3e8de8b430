import Foundation
import AlbumTestSupport
import Testing

/// Sidecars keep the names their editors gave them, in the library and on export: darktable reads
/// only `<raw name>.xmp` (`IMG_0003.CR2.xmp`), Lightroom `<stem>.xmp` (`IMG_0004.xmp`).
@Suite(.onThreadsOfTheirOwn) struct SidecarNameCLITests {
    /// A card with a RAW+JPEG pair edited in darktable (`IMG_0003.CR2.xmp`) and one edited in
    /// Lightroom (`IMG_0004.xmp`); `mark` makes the photos' bytes differ from another card's.
    static func card(in dir: URL, named name: String = "card", mark: String = "") throws -> URL {
        let card = dir.appendingPathComponent(name)
        let folder = card.appendingPathComponent("DCIM/100CANON")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let base = try Data(contentsOf: CLI.examples.appendingPathComponent("harbour.jpg"))
        for stem in ["IMG_0003", "IMG_0004"] {
            try (base + Data("\(stem)\(mark)".utf8)).write(to: folder.appendingPathComponent("\(stem).JPG"))
            // Not a raw AlbumKit can read: kept as it is, beside its JPEG.
            try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7) } + Array("\(stem)\(mark)".utf8)).write(
                to: folder.appendingPathComponent("\(stem).CR2"))
        }
        try Data("<x:xmpmeta xmlns:x='adobe:ns:meta/'>darktable history\(mark)</x:xmpmeta>".utf8).write(
            to: folder.appendingPathComponent("IMG_0003.CR2.xmp"))
        try Data("<x:xmpmeta xmlns:x='adobe:ns:meta/'>Lightroom develop\(mark)</x:xmpmeta>".utf8).write(
            to: folder.appendingPathComponent("IMG_0004.xmp"))
        return card
    }

    @Test(arguments: ["catalog", "folders"])
    func editorsSidecarNamesAreKeptInTheLibraryAndOnExport(kind: String) throws {
        try CLI.withTemporaryDirectory { dir in
            let card = try Self.card(in: dir)
            let folder = card.appendingPathComponent("DCIM/100CANON")
            let library = CompanionCLITests.library(kind, in: dir)
            let run = try CLI.run(["import", "--album", "Trip", card.path] + library)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.lines.contains { $0.contains("(with IMG_0003.CR2, IMG_0003.CR2.xmp)") }, "\(run.stdout)")
            #expect(run.lines.contains { $0.contains("(with IMG_0004.CR2, IMG_0004.xmp)") }, "\(run.stdout)")

            let kept = CompanionCLITests.companions(try CLI.run(["show", "Trip", "--json"] + library))
            #expect(kept["IMG_0003.JPG"]?.map(\.file) == ["IMG_0003.CR2", "IMG_0003.CR2.xmp"], "\(kept)")
            #expect(kept["IMG_0004.JPG"]?.map(\.file) == ["IMG_0004.CR2", "IMG_0004.xmp"], "\(kept)")
            if kind == "folders" {
                // In the album folder, under the editors' names, where darktable and Lightroom look.
                let names = try FileManager.default.contentsOfDirectory(
                    atPath: dir.appendingPathComponent("Pictures/Trip").path
                ).filter { !$0.hasPrefix(".") }.sorted()
                #expect(
                    names == [
                        "IMG_0003.CR2", "IMG_0003.CR2.xmp", "IMG_0003.JPG", "IMG_0004.CR2", "IMG_0004.JPG",
                        "IMG_0004.xmp",
                    ], "\(names)")
            }

            let out = dir.appendingPathComponent("out")
            let export = try CLI.run(["export", "Trip", out.path] + library)
            #expect(export.status == 0, "\(export.stderr)")
            let exported = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { !$0.hasPrefix(".") }
                .sorted()
            #expect(
                exported == [
                    "IMG_0003.CR2", "IMG_0003.CR2.xmp", "IMG_0003.JPG", "IMG_0004.CR2", "IMG_0004.JPG", "IMG_0004.xmp",
                ], "no IMG_0003.xmp, ambiguous between the JPEG and the raw: \(exported)")
            for name in exported {
                #expect(
                    CLI.sha256(out.appendingPathComponent(name)) == CLI.sha256(folder.appendingPathComponent(name)),
                    "\(name)")
            }

            // Imported again: found with their sidecars where they are, nothing to update.
            let again = try CLI.run(["import", "--album", "Trip", card.path] + library)
            #expect(again.stderr.contains("0 saved, 2 already in the library"), "\(again.stderr)")
            #expect(!again.stderr.contains("updated") && !again.stdout.contains("updated"), "\(again.stdout)")

            // A second card's photos of the same names are numbered with every file of their group.
            let second = try Self.card(in: dir, named: "card2", mark: "second")
            let more = try CLI.run(["import", "--album", "Trip", second.path] + library)
            #expect(more.status == 0, "\(more.stderr)")
            let out2 = dir.appendingPathComponent("out2")
            #expect(try CLI.run(["export", "Trip", out2.path] + library).status == 0)
            let numbered = try FileManager.default.contentsOfDirectory(atPath: out2.path).filter {
                $0.hasPrefix("IMG_0003 2")
            }.sorted()
            #expect(numbered == ["IMG_0003 2.CR2", "IMG_0003 2.CR2.xmp", "IMG_0003 2.JPG"], "\(numbered)")
            #expect(
                CLI.sha256(out2.appendingPathComponent("IMG_0003 2.CR2.xmp"))
                    == CLI.sha256(second.appendingPathComponent("DCIM/100CANON/IMG_0003.CR2.xmp")))
        }
    }
}
