import AlbumKitConformance
import AlbumTestSupport
import Foundation
import Testing

/// A clip's `.THM` (a Canon's JPEG of it) and `.LRV` (a GoPro's low-resolution copy) are that
/// clip's companions through import, listing, export and verify in both library kinds, never photos
/// and videos of their own; the `.THM` is the clip's poster when it is big enough.
@Suite struct ClipCompanionCLITests {
    /// A card: `MVI_0001.MP4` with `MVI_0001.THM` (a green 320 × 240 JPEG, the clip's shape) and
    /// `MVI_0001.LRV`, a photo `IMG_0002.JPG`, and `MVI_0003.THM` whose clip is not there.
    static func card(in dir: URL) throws -> URL {
        let card = dir.appendingPathComponent("card")
        let folder = card.appendingPathComponent("DCIM/100CANON")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let clip = try Data(contentsOf: Fixture.video)
        try clip.write(to: folder.appendingPathComponent("MVI_0001.MP4"))
        // A low-resolution copy: another MP4 (here the clip with bytes after it, which readers skip).
        try (clip + Data(repeating: 0, count: 64)).write(to: folder.appendingPathComponent("MVI_0001.LRV"))
        try ExternalTool.python(
            """
            import sys
            from PIL import Image
            Image.new('RGB', (320, 240), (0, 200, 0)).save(sys.argv[1] + '/MVI_0001.THM', 'JPEG')
            Image.new('RGB', (160, 120), (0, 0, 200)).save(sys.argv[1] + '/MVI_0003.THM', 'JPEG')
            """, modules: ["PIL"], arguments: [folder.path])
        try Fixture.uniqueJPEG("clip card").write(to: folder.appendingPathComponent("IMG_0002.JPG"))
        return card
    }

    @Test(arguments: ["catalog", "folders"])
    func aClipsTHMAndLRVAreKeptWithItAndTheTHMIsItsPoster(kind: String) throws {
        try CLI.withTemporaryDirectory { dir in
            let card = try Self.card(in: dir)
            let folder = card.appendingPathComponent("DCIM/100CANON")
            let library = CompanionCLITests.library(kind, in: dir)
            let run = try CLI.run(["import", "-v", "--album", "Clips", card.path] + library)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(
                run.lines.contains { $0.contains("MVI_0001.MP4") && $0.contains("(with MVI_0001.LRV, MVI_0001.THM)") },
                "\(run.stdout)")
            // The clip, the photo, and the lone .THM as what its bytes are (a photo).
            #expect(run.lines.count == 3, "\(run.stdout)")
            #expect(
                run.stderr.contains("3 saved, 2 clip companions (.THM, .LRV) kept with 1 video"), "\(run.stderr)")

            let show = try CLI.run(["show", "Clips", "--json"] + library)
            let kept = CompanionCLITests.companions(show)
            // (A folder library names the lone .THM as the JPEG it is: MVI_0003.THM.jpg.)
            #expect(kept.keys.sorted().map { $0.prefix(12) } == ["IMG_0002.JPG", "MVI_0001.MP4", "MVI_0003.THM"])
            #expect(kept["MVI_0001.MP4"]?.map(\.file).sorted() == ["MVI_0001.LRV", "MVI_0001.THM"], "\(show.stdout)")
            #expect(kept["MVI_0001.MP4"]?.map(\.role) == ["sidecar", "sidecar"], "\(show.stdout)")
            for companion in kept["MVI_0001.MP4"] ?? [] {
                #expect(
                    CLI.sha256(URL(fileURLWithPath: companion.path))
                        == CLI.sha256(folder.appendingPathComponent(companion.file)), "\(companion)")
            }
            let verify = try CLI.run(["verify"] + library)
            #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")

            let out = dir.appendingPathComponent("out")
            let export = try CLI.run(["export", "Clips", out.path] + library)
            #expect(export.status == 0, "\(export.stderr)")
            for name in ["MVI_0001.MP4", "MVI_0001.THM", "MVI_0001.LRV"] {
                #expect(
                    CLI.sha256(out.appendingPathComponent(name)) == CLI.sha256(folder.appendingPathComponent(name)),
                    "\(name)")
            }

            // The .THM (320 × 240, the clip's 4:3) is big enough for a 256-pixel thumbnail: the clip's
            // picture is the camera's own (green), not a decoded frame.
            try ExternalTool.requireLibvips()
            let poster = dir.appendingPathComponent("poster.jpg")
            let thumbnail = try CLI.run(["thumbnail", "MVI_0001.MP4", "-o", poster.path] + library)
            #expect(
                thumbnail.status == 0 && thumbnail.stdout.contains("256x192"), "\(thumbnail.stdout)\(thumbnail.stderr)")
            let centre = try ExternalTool.python(
                "import sys\nfrom PIL import Image\nim = Image.open(sys.argv[1]).convert('RGB')\nprint(*im.getpixel((128, 96)))",
                modules: ["PIL"], arguments: [poster.path]
            ).split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            #expect(centre.count == 3 && centre[1] > 150 && centre[0] < 60 && centre[2] < 60, "green, not \(centre)")

            let reimport = try CLI.run(["import", "--album", "Clips", card.path] + library)
            #expect(reimport.stderr.contains("0 saved, 3 already in the library"), "\(reimport.stderr)")
        }
    }

    @Test(
        .enabled(if: getuid() == 0, "hiding FFmpeg needs a private mount namespace (root; CI runs as root)"),
        .enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/libavformat.so.59"), "FFmpeg")
    )
    func withoutFFmpegAClipsSmallTHMIsItsPoster() throws {
        try ExternalTool.requireLibvips()
        try CLI.withTemporaryDirectory { dir in
            let card = try Self.card(in: dir)
            let folder = card.appendingPathComponent("DCIM/100CANON")
            // A Canon's usual 160 × 120: smaller than a thumbnail, so a frame is decoded when FFmpeg is there.
            try FileManager.default.removeItem(at: folder.appendingPathComponent("MVI_0001.THM"))
            try FileManager.default.copyItem(
                at: folder.appendingPathComponent("MVI_0003.THM"), to: folder.appendingPathComponent("MVI_0001.THM"))
            let library = dir.appendingPathComponent("L.albumlibrary").path
            let run = try CLI.run(["--library", library, "import", "--album", "Clips", card.path])
            #expect(run.status == 0, "\(run.stderr)")
            let poster = dir.appendingPathComponent("poster.jpg")
            let thumbnail = try ThumbnailCLITests.runHiding(
                "/usr/lib/x86_64-linux-gnu/libavformat.so.59", ["thumbnail", "MVI_0001.MP4", "-o", poster.path],
                library: library)
            #expect(
                thumbnail.status == 0 && thumbnail.stdout.contains("160x120"), "\(thumbnail.stdout)\(thumbnail.stderr)")
        }
    }
}
