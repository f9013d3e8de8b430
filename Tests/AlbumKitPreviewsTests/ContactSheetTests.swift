import AlbumKitPreviews
import AlbumTestSupport
import Foundation
import Testing

/// A contact sheet with captions set by libvips's text renderer, and as a one-page PDF, read back by
/// Pillow and by a reading of the PDF's own cross-reference table.
@Suite struct ContactSheetTests {
    /// Three thumbnails (a landscape, a portrait, a grey square) made by Pillow and rendered.
    static func thumbnails(_ fixture: PreviewFixture) throws -> [RenderedPreview] {
        try fixture.pillow(
            """
            from PIL import Image
            Image.new('RGB', (400, 300), (200, 40, 40)).save('0.jpg')
            Image.new('RGB', (300, 400), (40, 160, 40)).save('1.jpg')
            Image.new('L', (500, 500), 90).save('2.jpg')
            """)
        return try (0..<3).map { try fixture.render("\($0).jpg", maxPixelSize: 128) }
    }

    @Test func captionsAreSetBelowEachPicture() throws {
        let renderer = try PreviewFixture.renderer()
        let fixture = try PreviewFixture()
        let thumbnails = try Self.thumbnails(fixture)
        // Characters Pango would read as markup are text.
        let captions = ["IMG_0001.JPG\n2024-05-01 14:03", "Tom & Jerry <1>.jpg\n2024-05-02 09:00", "grey.jpg\nno date"]
        let sheet = try renderer.contactSheet(thumbnails, cellSize: 128, across: 3, gap: 10, captions: captions)
        #expect(sheet.pixelWidth == 3 * 128 + 2 * 10)
        #expect(sheet.pixelHeight > 128 + 10, "two lines of caption below the pictures: \(sheet.pixelHeight)")
        try Data(sheet.bytes).write(to: fixture.folder.appendingPathComponent("sheet.jpg"))
        // Below each picture: dark text on white (the darkest pixel of each caption), and nothing
        // between the columns.
        let read = try fixture.pillow(
            """
            from PIL import Image
            im = Image.open('sheet.jpg').convert('L')
            w, h = im.size
            for column in range(3):
                x = column * 138
                caption = im.crop((x, 132, x + 128, h))
                print(min(caption.getdata()), end=' ')
            print(min(im.crop((129, 0, 137, h)).getdata()))
            """
        ).split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(read.count == 4 && read[0..<3].allSatisfy { $0 < 100 } && read[3] > 240, "\(read)")

        // Without captions the sheet is the pictures alone.
        let bare = try renderer.contactSheet(thumbnails, cellSize: 128, across: 3, gap: 10)
        #expect((bare.pixelWidth, bare.pixelHeight) == (404, 128))
        #expect(throws: PreviewError.self) {
            try renderer.contactSheet(thumbnails, cellSize: 128, across: 3, gap: 10, captions: ["one"])
        }
    }

    @Test func aPDFPageShowsTheSheetAsItIs() throws {
        let renderer = try PreviewFixture.renderer()
        let fixture = try PreviewFixture()
        let sheet = try renderer.contactSheet(
            try Self.thumbnails(fixture), cellSize: 128, across: 2, gap: 8, captions: ["a", "b", "c"])
        let pdf = PDFPage.showing(sheet)
        try Data(pdf).write(to: fixture.folder.appendingPathComponent("sheet.pdf"))
        // Every offset of the cross-reference table starts its object; the image is the sheet's JPEG,
        // byte for byte, at the sheet's size; the page is the sheet at 150 pixels an inch.
        let read = try fixture.pillow(
            """
            import io, re
            from PIL import Image
            data = open('sheet.pdf', 'rb').read()
            assert data.startswith(b'%PDF-1.4\\n') and data.rstrip().endswith(b'%%EOF')
            start = int(data.rsplit(b'startxref', 1)[1].split()[0])
            assert data[start:].startswith(b'xref')
            lines = data[start:].split(b'\\n')
            count = int(lines[1].split()[1])
            for number in range(1, count):
                offset = int(lines[2 + number][:10])
                assert data[offset:].startswith(b'%d 0 obj' % number), number
            begin = data.index(b'stream\\n', data.index(b'/Subtype /Image')) + 7
            length = int(re.search(rb'/Length (\\d+)', data[data.index(b'/Subtype /Image'):]).group(1))
            embedded = data[begin:begin + length]
            im = Image.open(io.BytesIO(embedded))
            box = re.search(rb'/MediaBox \\[0 0 ([0-9.]+) ([0-9.]+)\\]', data)
            print(count - 1, im.size[0], im.size[1], box.group(1).decode(), box.group(2).decode())
            """
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        let width = Double(sheet.pixelWidth) * 72 / 150
        let height = Double(sheet.pixelHeight) * 72 / 150
        let fields = read.split(separator: " ").map(String.init)
        #expect(fields.count == 5 && fields[0] == "5", "\(read)")
        #expect(fields.count == 5 && fields[1] == "\(sheet.pixelWidth)" && fields[2] == "\(sheet.pixelHeight)")
        #expect(fields.count == 5 && abs((Double(fields[3]) ?? 0) - width) < 0.01, "\(read)")
        #expect(fields.count == 5 && abs((Double(fields[4]) ?? 0) - height) < 0.01, "\(read)")
        // The image's bytes are the sheet's JPEG itself.
        #expect(pdf.count > sheet.bytes.count)
        let jpegStart = try #require(Self.range(of: sheet.bytes, in: pdf))
        #expect(jpegStart > 0)
    }

    /// Where `needle` first occurs in `haystack`.
    static func range(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        return (0...(haystack.count - needle.count)).first { start in
            haystack[start] == needle[0] && Array(haystack[start..<(start + needle.count)]) == needle
        }
    }

    @Test func markupIsEscaped() {
        #expect(PreviewRenderer.escapingMarkup("Tom & Jerry <1>") == "Tom &amp; Jerry &lt;1&gt;")
        #expect(PreviewRenderer.escapingMarkup("IMG_0001.JPG") == "IMG_0001.JPG")
    }
}
