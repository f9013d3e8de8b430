import AlbumKitConformance
import AlbumTestSupport
import Foundation
import Testing

/// `album thumbnail`: the real binary writes a thumbnail made by libvips, by id prefix or file name,
/// into a new file; refuses to overwrite one; `album previews` makes what the library lacks.
@Suite(.onThreadsOfTheirOwn) struct ThumbnailCLITests {
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
        try ExternalTool.requireLibvips()
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
            #expect(line["width"] as? Int == 256 && line["height"] as? Int == 192)
            #expect(line["format"] as? String == "jpeg" && line["embedded"] as? Bool == false)
            #expect(try Data(contentsOf: URL(fileURLWithPath: output)).prefix(2) == Data([0xFF, 0xD8]))

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
            #expect(byName.stdout.contains("256x192 jpeg"), "\(byName.stdout)")

            // A PNG has one too, never enlarged; 100 pixels are scaled from the kept 256.
            let fromPNG = dir.appendingPathComponent("png.jpg").path
            let ofPNG = try CLI.run(args + ["thumbnail", ids[1], "--output", fromPNG])
            #expect(ofPNG.status == 0 && ofPNG.stdout.contains("64x48 jpeg"), "\(ofPNG.stdout)\(ofPNG.stderr)")
            let fitted = dir.appendingPathComponent("fitted.jpg").path
            let small100 = try CLI.run(args + ["thumbnail", ids[0], "--output", fitted, "--size", "100"])
            #expect(small100.stdout.contains("100x75 jpeg"), "\(small100.stdout)\(small100.stderr)")

            // `album previews` makes the three kept sizes of both, then finds them kept.
            let built = try CLI.run(args + ["previews", "--json"])
            #expect(built.status == 0, "\(built.stderr)")
            let report = try #require(built.json() as? [String: Any])
            #expect(report["made"] as? Int == 4 && report["reused"] as? Int == 2, "\(built.stdout)")
            let rebuilt = try CLI.run(args + ["previews", "--album", "Trips"])
            #expect(rebuilt.status == 0 && rebuilt.stdout.contains("made 0, reused 6, failed 0"), "\(rebuilt.stdout)")
            let none = dir.appendingPathComponent("none.jpg").path

            // --output is required; --size takes pixels.
            #expect(try CLI.run(args + ["thumbnail", ids[0]]).status == 2)
            #expect(try CLI.run(args + ["thumbnail", ids[0], "-o", none, "--size", "0"]).status == 2)
        }
    }

    /// Runs `album ARGS` with libvips hidden (/dev/null bound over it in a private mount namespace).
    static func runWithoutLibvips(_ arguments: [String], library: String) throws -> CLI.Run {
        try runHiding("/usr/lib/x86_64-linux-gnu/libvips.so.42", arguments, library: library)
    }

    /// Runs `album ARGS` with the library file `hiding` (a link followed) replaced by /dev/null in
    /// a private mount namespace.
    static func runHiding(_ hiding: String, _ arguments: [String], library: String) throws -> CLI.Run {
        try runHiding([hiding], arguments, library: library)
    }

    /// Runs `album ARGS` with each library file of `hiding` (links followed) replaced by /dev/null
    /// in a private mount namespace.
    static func runHiding(_ hiding: [String], _ arguments: [String], library: String) throws -> CLI.Run {
        let hidden = hiding.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        // The first argument says how many files to hide; those files follow, then the command.
        let script =
            "n=$1; shift; while [ \"$n\" -gt 0 ]; do mount --bind /dev/null \"$1\" || exit 125; shift; n=$((n - 1)); done; exec \"$@\""
        process.arguments =
            ["-m", "sh", "-c", script, "sh", "\(hidden.count)"] + hidden + [CLI.binary.path, "--library", library]
            + arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return CLI.Run(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }

    @Test(
        .enabled(if: getuid() == 0, "hiding libvips needs a private mount namespace (root; CI runs as root)"),
        .enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/libvips.so.42"), "libvips42")
    )
    func withoutLibvipsAThumbnailNamesThePackageAndOtherCommandsWork() throws {
        try CLI.withTemporaryDirectory { dir in
            let library = dir.appendingPathComponent("Test.albumlibrary").path
            let saved = try CLI.run(["--library", library, "save", "--album", "Trips", Fixture.jpeg.path])
            #expect(saved.status == 0, "\(saved.stderr)")
            let output = dir.appendingPathComponent("thumb.jpg").path
            let thumbnail = try Self.runWithoutLibvips(["thumbnail", "harbour.jpg", "-o", output], library: library)
            #expect(thumbnail.status == 1)
            #expect(thumbnail.stderr.contains("install libvips42"), "\(thumbnail.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output))
            let albums = try Self.runWithoutLibvips(["albums"], library: library)
            #expect(albums.status == 0 && albums.stdout.contains("Trips"), "\(albums.stdout)\(albums.stderr)")
        }
    }

    @Test func aVideosThumbnailIsItsPosterFrame() throws {
        try ExternalTool.requireLibvips()
        try ExternalTool.requireFFmpegLibraries()
        try CLI.withTemporaryDirectory { dir in
            let args = ["--library", dir.appendingPathComponent("Test.albumlibrary").path]
            let saved = try CLI.run(args + ["save", "--album", "Trips", Fixture.video.path, Fixture.jpeg.path])
            #expect(saved.status == 0, "\(saved.stderr)")
            let output = dir.appendingPathComponent("poster.jpg").path
            let poster = try CLI.run(args + ["thumbnail", "clip.mp4", "-o", output, "--size", "100"])
            #expect(poster.status == 0 && poster.stdout.contains("100x75 jpeg"), "\(poster.stdout)\(poster.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: output)).prefix(2) == Data([0xFF, 0xD8]))
            let built = try CLI.run(args + ["previews"])
            #expect(built.status == 0, "\(built.stderr)")
            #expect(built.stdout.contains("failed 0 (poster frames of 1 video among them)"), "\(built.stdout)")
        }
    }

    /// A clip whose frames are zeros saves (its structure is whole) but shows nothing: the error
    /// names it by the file's own name, not only by where the catalog keeps it.
    @Test func aVideoThatDoesNotDecodeIsNamedByItsOwnName() throws {
        try ExternalTool.requireLibvips()
        try ExternalTool.requireFFmpegLibraries()
        try CLI.withTemporaryDirectory { dir in
            var bytes = [UInt8](try Data(contentsOf: Fixture.video))
            let mdat = try #require((4..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == Array("mdat".utf8) })
            let size = bytes[(mdat - 4)..<mdat].reduce(0) { $0 << 8 | Int($1) }
            for index in (mdat + 4)..<min(bytes.count, mdat - 4 + size) { bytes[index] = 0 }
            let blank = dir.appendingPathComponent("blank.mp4")
            try Data(bytes).write(to: blank)
            let args = ["--library", dir.appendingPathComponent("Test.albumlibrary").path]
            let saved = try CLI.run(args + ["save", "--album", "Trips", blank.path])
            #expect(saved.status == 0, "\(saved.stderr)")
            let output = dir.appendingPathComponent("poster.jpg").path
            let poster = try CLI.run(args + ["thumbnail", "blank.mp4", "-o", output])
            #expect(poster.status == 1)
            #expect(
                poster.stderr.contains("blank.mp4 (") && poster.stderr.contains("cannot be shown"), "\(poster.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
    }

    @Test(
        .enabled(if: getuid() == 0, "hiding FFmpeg needs a private mount namespace (root; CI runs as root)"),
        .enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/libavformat.so.59"), "FFmpeg")
    )
    func withoutFFmpegAVideosThumbnailNamesThePackagesAndPhotosStillWork() throws {
        try ExternalTool.requireLibvips()
        try CLI.withTemporaryDirectory { dir in
            let library = dir.appendingPathComponent("Test.albumlibrary").path
            let saved = try CLI.run(["--library", library, "save", "--album", "Trips", Fixture.video.path])
            #expect(saved.status == 0, "\(saved.stderr)")
            let hidden = "/usr/lib/x86_64-linux-gnu/libavformat.so.59"
            let output = dir.appendingPathComponent("poster.jpg").path
            let poster = try Self.runHiding(hidden, ["thumbnail", "clip.mp4", "-o", output], library: library)
            #expect(poster.status == 1)
            #expect(poster.stderr.contains("install libavformat59"), "\(poster.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output))
            let photo = try Self.runHiding(
                hidden, ["save", "--album", "Trips", Fixture.jpeg.path], library: library)
            #expect(photo.status == 0, "\(photo.stderr)")
            let thumbnail = try Self.runHiding(
                hidden, ["thumbnail", "harbour.jpg", "-o", dir.appendingPathComponent("t.jpg").path], library: library)
            #expect(thumbnail.status == 0, "\(thumbnail.stderr)")
            let albums = try Self.runHiding(hidden, ["albums"], library: library)
            #expect(albums.status == 0 && albums.stdout.contains("Trips"), "\(albums.stdout)\(albums.stderr)")
        }
    }
}
