import AlbumKitConformance
import AlbumTestSupport
import Foundation
import Testing

/// A clip's `.THM` (a Canon's JPEG of it) and `.LRV` (a GoPro's low-resolution copy) are that
/// clip's companions through import, listing, export and verify in both library kinds, never photos
/// and videos of their own; the `.THM` is the clip's poster when it is big enough.
@Suite(.onThreadsOfTheirOwn) struct ClipCompanionCLITests {
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

    /// A GoPro HERO6-or-later card: `GX010001.MP4` with `GL010001.LRV` and `GX010001.THM`, its
    /// second chapter `GX020001.MP4` with `GL020001.LRV`, and `GH010002.MP4` beside `GX010002.MP4`
    /// with one `GL010002.LRV` both could claim. Each clip's bytes differ (as many zeros after the
    /// movie, which readers skip), so none is taken for another.
    static func goProCard(in dir: URL) throws -> URL {
        let card = dir.appendingPathComponent("card")
        let folder = card.appendingPathComponent("DCIM/100GOPRO")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let clip = try Data(contentsOf: Fixture.video)
        let names = ["GX010001.MP4", "GL010001.LRV", "GX020001.MP4", "GL020001.LRV", "GH010002.MP4", "GX010002.MP4"]
        for (number, name) in (names + ["GL010002.LRV"]).enumerated() {
            try (clip + Data(repeating: 0, count: 64 * (number + 1))).write(to: folder.appendingPathComponent(name))
        }
        try ExternalTool.python(
            """
            import sys
            from PIL import Image
            Image.new('RGB', (320, 240), (0, 200, 0)).save(sys.argv[1] + '/GX010001.THM', 'JPEG')
            """, modules: ["PIL"], arguments: [folder.path])
        return card
    }

    @Test(arguments: ["catalog", "folders"])
    func aGoProsLowResolutionCopyIsKeptWithTheClipOfItsChapterAndNumber(kind: String) throws {
        try CLI.withTemporaryDirectory { dir in
            let card = try Self.goProCard(in: dir)
            let folder = card.appendingPathComponent("DCIM/100GOPRO")
            let library = CompanionCLITests.library(kind, in: dir)
            let dryRun = try CLI.run(["import", "--dry-run", "--album", "GoPro", card.path] + library)
            #expect(
                dryRun.stderr.contains(
                    "5 would be saved, 1 low-resolution copy (.LRV) would be saved as a video of its own (GL010002.LRV: GH010002.MP4 and GX010002.MP4 could each be its clip)"
                ), "\(dryRun.stderr)")
            let run = try CLI.run(["import", "-v", "--album", "GoPro", card.path] + library)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(
                run.lines.contains { $0.contains("GX010001.MP4") && $0.contains("(with GL010001.LRV, GX010001.THM)") },
                "\(run.stdout)")
            #expect(
                run.lines.contains { $0.contains("GX020001.MP4") && $0.contains("(with GL020001.LRV)") },
                "\(run.stdout)")
            // Two clips could claim GL010002.LRV: a video of its own, and the summary says why.
            #expect(run.lines.count == 5, "\(run.stdout)")
            #expect(
                run.stderr.contains(
                    "5 saved, 3 clip companions (.THM, .LRV) kept with 2 videos, 1 low-resolution copy (.LRV) saved as a video of its own (GL010002.LRV: GH010002.MP4 and GX010002.MP4 could each be its clip)"
                ), "\(run.stderr)")

            let show = try CLI.run(["show", "GoPro", "--json"] + library)
            let kept = CompanionCLITests.companions(show)
            #expect(kept["GX010001.MP4"]?.map(\.file).sorted() == ["GL010001.LRV", "GX010001.THM"], "\(show.stdout)")
            #expect(kept["GX020001.MP4"]?.map(\.file) == ["GL020001.LRV"], "\(show.stdout)")
            #expect(kept["GH010002.MP4"]?.isEmpty == true && kept["GX010002.MP4"]?.isEmpty == true, "\(show.stdout)")
            #expect(kept.keys.contains { $0.hasPrefix("GL010002.LRV") }, "the unclaimed copy, listed: \(show.stdout)")
            for companion in (kept["GX010001.MP4"] ?? []) + (kept["GX020001.MP4"] ?? []) {
                #expect(
                    CLI.sha256(URL(fileURLWithPath: companion.path))
                        == CLI.sha256(folder.appendingPathComponent(companion.file)), "\(companion)")
            }
            let verify = try CLI.run(["verify"] + library)
            #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")

            let out = dir.appendingPathComponent("out")
            let export = try CLI.run(["export", "GoPro", out.path] + library)
            #expect(export.status == 0, "\(export.stderr)")
            for name in ["GX010001.MP4", "GL010001.LRV", "GX010001.THM", "GX020001.MP4", "GL020001.LRV"] {
                #expect(
                    CLI.sha256(out.appendingPathComponent(name)) == CLI.sha256(folder.appendingPathComponent(name)),
                    "\(name)")
            }

            let reimport = try CLI.run(["import", "--album", "GoPro", card.path] + library)
            #expect(reimport.stderr.contains("0 saved, 5 already in the library"), "\(reimport.stderr)")

            // Another camera's GH010001.MP4 saved later into the album: GX010001.MP4 keeps its copy
            // (a folder library names the newcomer GH010001 2.MP4 so the copy stays GX010001's alone).
            let second = dir.appendingPathComponent("second")
            try FileManager.default.createDirectory(at: second, withIntermediateDirectories: true)
            try (Data(contentsOf: Fixture.video) + Data(repeating: 0, count: 4096)).write(
                to: second.appendingPathComponent("GH010001.MP4"))
            let later = try CLI.run(["import", "--album", "GoPro", second.path] + library)
            #expect(later.status == 0 && later.stderr.contains("1 saved"), "\(later.stderr)")
            let after = CompanionCLITests.companions(try CLI.run(["show", "GoPro", "--json"] + library))
            #expect(after["GX010001.MP4"]?.map(\.file).sorted() == ["GL010001.LRV", "GX010001.THM"], "\(after)")
            #expect(after.keys.contains(kind == "folders" ? "GH010001 2.MP4" : "GH010001.MP4"), "\(after.keys)")
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
