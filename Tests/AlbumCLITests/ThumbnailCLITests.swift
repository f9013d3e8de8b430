import AlbumTestSupport
import Foundation
import Testing

/// `album thumbnail`: the real binary writes the EXIF thumbnail exiftool stored, by id prefix or
/// file name, into a new file; refuses to overwrite one; reports a file that keeps none.
@Suite struct ThumbnailCLITests {
    /// Runs `tool` (ImageMagick's `convert`, `exiftool`) and expects it to succeed; a missing one
    /// skips the test outside CI (``ExternalTool``).
    static func tool(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try ExternalTool.require(tool))
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(tool) \(arguments)")
    }

    @Test func writesTheStoredThumbnailIntoANewFileOnly() throws {
        try CLI.withTemporaryDirectory { dir in
            let args = ["--library", dir.appendingPathComponent("Test.albumlibrary").path]
            let photo = dir.appendingPathComponent("IMG_0001.JPG").path
            let small = dir.appendingPathComponent("small.jpg").path
            let png = dir.appendingPathComponent("Screenshot.png").path
            try Self.tool("convert", ["-size", "400x300", "gradient:red-blue", photo])
            try Self.tool("convert", ["-size", "160x120", "xc:green", small])
            try Self.tool("exiftool", ["-q", "-overwrite_original", "-ThumbnailImage<=" + small, photo])
            try Self.tool("convert", ["-size", "64x48", "gradient:blue-white", png])
            let saved = try CLI.run(args + ["save", "--json", "--album", "Trips", photo, png])
            #expect(saved.status == 0, "\(saved.stderr)")
            let ids = saved.jsonLines().compactMap { $0["asset"] as? String }
            #expect(ids.count == 2)

            // By the start of its id, with JSON.
            let output = dir.appendingPathComponent("thumb.jpg").path
            let byPrefix = try CLI.run(args + ["thumbnail", String(ids[0].prefix(8)), "--output", output, "--json"])
            #expect(byPrefix.status == 0, "\(byPrefix.stderr)")
            let line = try #require(byPrefix.json() as? [String: Any])
            #expect(line["asset"] as? String == ids[0])
            #expect(line["width"] as? Int == 160 && line["height"] as? Int == 120)
            #expect(line["format"] as? String == "jpeg" && line["embedded"] as? Bool == true)
            #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == Data(contentsOf: URL(fileURLWithPath: small)))

            // An existing file is never overwritten.
            try Data("mine".utf8).write(to: URL(fileURLWithPath: output))
            let again = try CLI.run(args + ["thumbnail", "IMG_0001.JPG", "--output", output])
            #expect(again.status == 1)
            #expect(again.stderr.contains("exists already"), "\(again.stderr)")
            #expect(try String(contentsOfFile: output, encoding: .utf8) == "mine")

            // By file name, as text.
            let other = dir.appendingPathComponent("other.jpg").path
            let byName = try CLI.run(args + ["thumbnail", "IMG_0001.JPG", "-o", other])
            #expect(byName.status == 0, "\(byName.stderr)")
            #expect(byName.stdout.contains("160x120 jpeg"), "\(byName.stdout)")

            // A PNG keeps none: reported, nothing written.
            let none = dir.appendingPathComponent("none.jpg").path
            let fromPNG = try CLI.run(args + ["thumbnail", ids[1], "--output", none, "--json"])
            #expect(fromPNG.status == 1)
            #expect(fromPNG.stdout.contains("notSupported") || fromPNG.stderr.contains("notSupported"))
            #expect(!FileManager.default.fileExists(atPath: none))

            // --output is required; --size takes pixels.
            #expect(try CLI.run(args + ["thumbnail", ids[0]]).status == 2)
            #expect(try CLI.run(args + ["thumbnail", ids[0], "-o", none, "--size", "0"]).status == 2)
        }
    }
}
