import Foundation
import AlbumTestSupport
import Testing

/// `--lens` and `--rating` on `show` and `assets`: the lens from EXIF LensModel or an XMP sidecar's
/// `aux:Lens`, the rating from the sidecar's `xmp:Rating` (where Lightroom and darktable write it).
@Suite(.onThreadsOfTheirOwn) struct LensAndRatingCLITests {
    static func sidecar(_ attributes: String) -> Data {
        Data(
            """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
             xmlns:aux="http://ns.adobe.com/exif/1.0/aux/" \(attributes)/></rdf:RDF></x:xmpmeta>
            """.utf8)
    }

    static func names(_ run: CLI.Run) -> [String] {
        ((run.json() as? [[String: Any]]) ?? []).compactMap { $0["file"] as? String }.sorted()
    }

    @Test(arguments: ["catalog", "folders"])
    func lensAndRatingFindPhotosFromTheFileAndItsSidecar(kind: String) throws {
        try CLI.withTemporaryDirectory { dir in
            let library = CompanionCLITests.library(kind, in: dir)
            let card = dir.appendingPathComponent("card")
            try FileManager.default.createDirectory(at: card, withIntermediateDirectories: true)
            var zoom = ExifJPEG(make: "Canon", model: "Canon EOS R6")
            zoom.lens = "RF24-105mm F4 L IS USM"
            try zoom.data(tag: "zoom").write(to: card.appendingPathComponent("ZOOM.JPG"))
            var prime = zoom
            prime.lens = "RF50mm F1.8 STM"
            try prime.data(tag: "prime").write(to: card.appendingPathComponent("PRIME.JPG"))
            let plain = ExifJPEG(make: "Canon", model: "Canon EOS R6")
            try plain.data(tag: "best").write(to: card.appendingPathComponent("BEST.JPG"))
            try Self.sidecar("xmp:Rating=\"4\"").write(to: card.appendingPathComponent("BEST.JPG.xmp"))
            try plain.data(tag: "fair").write(to: card.appendingPathComponent("FAIR.JPG"))
            try Self.sidecar("xmp:Rating=\"2\" aux:Lens=\"EF70-200mm f/2.8L IS III USM\"").write(
                to: card.appendingPathComponent("FAIR.xmp"))
            let imported = try CLI.run(library + ["import", "--album", "Card", card.path])
            #expect(imported.status == 0, "\(imported.stderr)")

            func show(_ options: [String]) throws -> [String] {
                let run = try CLI.run(library + ["show", "--json", "Card"] + options)
                #expect(run.status == 0, "\(run.stderr)")
                return Self.names(run)
            }
            #expect(try show(["--lens", "24-105"]) == ["ZOOM.JPG"])
            #expect(try show(["--lens", "rf"]) == ["PRIME.JPG", "ZOOM.JPG"])
            #expect(try show(["--lens", "ef70"]) == ["FAIR.JPG"])
            #expect(try show(["--rating", "3"]) == ["BEST.JPG"])
            #expect(try show(["--rating", "2"]) == ["BEST.JPG", "FAIR.JPG"])
            #expect(try show(["--rating", "2", "--lens", "EF"]) == ["FAIR.JPG"])
            let assets = try CLI.run(library + ["assets", "--json", "--rating", "4"])
            #expect(Self.names(assets) == ["BEST.JPG"])
            let all = (try CLI.run(library + ["show", "--json", "Card"]).json() as? [[String: Any]]) ?? []
            let best = all.first { $0["file"] as? String == "BEST.JPG" }
            #expect(best?["rating"] as? Int == 4)
            #expect(all.first { $0["file"] as? String == "ZOOM.JPG" }?["lens"] as? String == "RF24-105mm F4 L IS USM")

            // Live Photos are Photos' alone: this library holds none.
            #expect(try show(["--kind", "live"]) == [])
            let wrong = try CLI.run(library + ["show", "Card", "--rating", "six"])
            #expect(wrong.status == 2)
            #expect(wrong.stderr.contains("--rating takes"), "\(wrong.stderr)")
        }
    }
}
