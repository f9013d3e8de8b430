/// A one-page PDF showing one JPEG across the whole page: a contact sheet as a document to print or
/// send. The JPEG is embedded as it is (PDF's DCTDecode filter reads JPEG), nothing re-encoded.
///
/// ```swift
/// let sheet = try renderer.contactSheet(thumbnails, cellSize: 256, across: 6, gap: 16)
/// let pdf = PDFPage.showing(sheet)   // 150 pixels an inch: a 1 800-pixel sheet is 12 inches wide
/// ```
package enum PDFPage {
    /// How many of the picture's pixels make an inch of the page.
    package static let pixelsPerInch = 150.0

    /// The PDF file of one page the size of `picture` at ``pixelsPerInch``, showing it.
    ///
    /// ```swift
    /// let bytes = PDFPage.showing(sheet)
    /// ```
    /// - Precondition: `picture` is a JPEG in RGB (as ``PreviewRenderer`` encodes a sheet).
    package static func showing(_ picture: RenderedPreview) -> [UInt8] {
        precondition(picture.format == .jpeg, "a PDF page shows a JPEG")
        // Points are 1/72 inch.
        let width = Double(picture.pixelWidth) * 72 / pixelsPerInch
        let height = Double(picture.pixelHeight) * 72 / pixelsPerInch
        let size = "\(points(width)) \(points(height))"
        let drawing = Array("q \(points(width)) 0 0 \(points(height)) 0 0 cm /Sheet Do Q\n".utf8)
        var file: [UInt8] = Array("%PDF-1.4\n%\u{E2}\u{E3}\u{CF}\u{D3}\n".utf8)
        var offsets: [Int] = []
        func object(_ text: String, stream: [UInt8]? = nil) {
            offsets.append(file.count)
            file += Array("\(offsets.count) 0 obj\n\(text)\n".utf8)
            if let stream { file += Array("stream\n".utf8) + stream + Array("\nendstream\n".utf8) }
            file += Array("endobj\n".utf8)
        }
        object("<< /Type /Catalog /Pages 2 0 R >>")
        object("<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
        object(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(size)] /Resources << /XObject << /Sheet 4 0 R >> >> "
                + "/Contents 5 0 R >>")
        object(
            "<< /Type /XObject /Subtype /Image /Width \(picture.pixelWidth) /Height \(picture.pixelHeight) "
                + "/ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length \(picture.bytes.count) >>",
            stream: picture.bytes)
        object("<< /Length \(drawing.count) >>", stream: drawing)
        let table = file.count
        var xref = "xref\n0 \(offsets.count + 1)\n0000000000 65535 f \n"
        for offset in offsets {
            xref += String(repeating: "0", count: 10 - String(offset).count) + "\(offset) 00000 n \n"
        }
        xref += "trailer\n<< /Size \(offsets.count + 1) /Root 1 0 R >>\nstartxref\n\(table)\n%%EOF\n"
        return file + Array(xref.utf8)
    }

    /// `value` with at most two decimals, as PDF writes numbers.
    private static func points(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return fraction == 0 ? "\(hundredths / 100)" : "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
