import AlbumKitConformance
import AlbumTestSupport
import Foundation
import Testing

/// `album contact-sheet`: an album's thumbnails with names and dates, as one JPEG or one PDF page,
/// into a new file only.
@Suite(.onThreadsOfTheirOwn) struct ContactSheetCLITests {
    @Test func anAlbumBecomesOneSheetAsJPEGOrPDF() throws {
        try ExternalTool.requireLibvips()
        try CLI.withTemporaryDirectory { dir in
            let args = ["--library", dir.appendingPathComponent("Test.albumlibrary").path]
            let saved = try CLI.run(args + ["save", "--album", "Trips", Fixture.jpeg.path, Fixture.png.path])
            #expect(saved.status == 0, "\(saved.stderr)")

            let jpeg = dir.appendingPathComponent("sheet.jpg")
            let made = try CLI.run(args + ["contact-sheet", "Trips", "-o", jpeg.path, "--size", "128", "--json"])
            #expect(made.status == 0, "\(made.stderr)")
            let line = try #require(made.json() as? [String: Any])
            #expect(line["pictures"] as? Int == 2 && line["leftOff"] as? Int == 0, "\(made.stdout)")
            // Two cells of 128 and the gap between them; captions below.
            let width = try #require(line["width"] as? Int)
            let height = try #require(line["height"] as? Int)
            #expect(width == 2 * 128 + 8 && height > 128, "\(made.stdout)")
            let read = try ExternalTool.python(
                """
                import sys
                from PIL import Image
                im = Image.open(sys.argv[1]); print(im.format, *im.size)
                print(min(im.convert('L').crop((0, 132, im.size[0], im.size[1])).getdata()))
                """, modules: ["PIL"], arguments: [jpeg.path]
            ).split(separator: "\n").map(String.init)
            #expect(read.first == "JPEG \(width) \(height)", "\(read)")
            #expect((Int(read.last ?? "") ?? 255) < 100, "captions are inked below the pictures: \(read)")

            let pdf = dir.appendingPathComponent("sheet.pdf")
            let page = try CLI.run(args + ["contact-sheet", "Trips", "--output", pdf.path, "--across", "1"])
            #expect(page.status == 0 && page.stdout.contains("2 pictures on a") && page.stdout.contains("(PDF)"))
            #expect(try Data(contentsOf: pdf).prefix(8) == Data("%PDF-1.4".utf8))

            // A file that exists is never overwritten; a format it cannot write, or no --output, is a usage error.
            let again = try CLI.run(args + ["contact-sheet", "Trips", "-o", jpeg.path])
            #expect(again.status == 1 && again.stderr.contains("exists already"), "\(again.stderr)")
            let png = dir.appendingPathComponent("sheet.png").path
            #expect(try CLI.run(args + ["contact-sheet", "Trips", "-o", png]).status == 2)
            #expect(try CLI.run(args + ["contact-sheet", "Trips"]).status == 2)
            #expect(
                try CLI.run(args + ["contact-sheet", "Trips", "-o", pdf.path + "2.pdf", "--across", "0"]).status == 2)
            let missing = try CLI.run(
                args + ["contact-sheet", "Nowhere", "-o", dir.appendingPathComponent("n.jpg").path])
            #expect(
                missing.status != 0 && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("n.jpg").path)
            )
        }
    }
}
