import AlbumKitPreviews
import AlbumTestSupport
import Foundation
import Testing

/// A temporary folder of pictures made by Pillow (and the tools beside it) for one test, and the
/// renderer the tests share.
final class PreviewFixture {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("albumkit-previews-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        // Best effort: a leftover temporary folder does not fail a test.
        try? FileManager.default.removeItem(at: folder)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Runs a Pillow script with the folder as the current directory (`sys.argv[1]`).
    @discardableResult
    func pillow(_ script: String, modules: [String] = ["PIL"]) throws -> String {
        try ExternalTool.python(
            "import os, sys\nos.chdir(sys.argv[1])\n" + script, modules: modules, arguments: [folder.path])
    }

    /// The renderer, or the test ends: skipped outside CI when libvips42 is missing, failed in CI.
    static func renderer(sourceLocation: SourceLocation = #_sourceLocation) throws -> PreviewRenderer {
        do {
            return try PreviewRenderer.load()
        } catch {
            if ExternalTool.inCI { throw error }
            TestRunReport.shared.skipped("test", because: error.reason)
            try Test.cancel("skipped: \(error.reason); CI runs it", sourceLocation: sourceLocation)
        }
    }

    /// Renders the file `name` through an open descriptor, as the libraries do.
    func render(
        _ name: String, maxPixelSize: Int, encoding: PreviewEncoding = .standard, strict: Bool = false
    ) throws -> RenderedPreview {
        let renderer = try Self.renderer()
        let handle = try FileHandle(forReadingFrom: folder.appendingPathComponent(name))
        defer { try? handle.close() }  // read-only: closing cannot lose anything
        return try renderer.render(
            .descriptor(handle.fileDescriptor), maxPixelSize: maxPixelSize, encoding: encoding, strict: strict)
    }

    /// Writes `preview`'s bytes as `name` and returns what Pillow reads from it: "W H MODE" and, when
    /// `pixel` is given, that pixel's value.
    func pillowReading(_ preview: RenderedPreview, as name: String, pixel: (Int, Int)? = nil) throws -> String {
        try Data(preview.bytes).write(to: folder.appendingPathComponent(name))
        let pixelLine = pixel.map { "print(*im.convert('RGB').getpixel((\($0.0), \($0.1))))" } ?? ""
        return try pillow(
            """
            from PIL import Image
            im = Image.open('\(name)'); im.load()
            print(im.width, im.height, im.mode, 'icc' if im.info.get('icc_profile') else 'noicc')
            \(pixelLine)
            """
        ).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
