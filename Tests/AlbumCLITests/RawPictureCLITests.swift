import AlbumKitConformance
import AlbumTestSupport
import Foundation
import Testing

/// `album thumbnail` of raw files that store no preview: the real binary develops them with LibRaw
/// (DNGs written by the test, ``MosaicDNG``), turned as their orientation says, within the memory a
/// grid can afford, and names a raw file LibRaw cannot read.
@Suite(.onThreadsOfTheirOwn) struct RawPictureCLITests {
    /// Skips outside CI when libvips or LibRaw is missing (the picture needs both).
    static func requireDecoders() throws {
        try ExternalTool.requireLibvips()
        let handle = dlopen("libraw_r.so.20", RTLD_LAZY | RTLD_LOCAL)
        if let handle { dlclose(handle) }
        try ExternalTool.requireAvailable(handle != nil, "LibRaw", install: "apt-get install libraw20")
    }

    @Test func aRawWithoutAPreviewGetsAThumbnailAndAPreviewTurnedAsItsOrientationSays() throws {
        try Self.requireDecoders()
        try CLI.withTemporaryDirectory { dir in
            let library = ["--library", dir.appendingPathComponent("Test.albumlibrary").path]
            let raw = dir.appendingPathComponent("DSC_0001.dng")
            try Data(MosaicDNG(width: 64, height: 48, orientation: 6).bytes()).write(to: raw)
            let saved = try CLI.run(library + ["save", "--album", "Raw", raw.path])
            #expect(saved.status == 0, "\(saved.stderr)")
            let thumbnail = dir.appendingPathComponent("thumb.jpg").path
            let made = try CLI.run(library + ["thumbnail", "DSC_0001.dng", "-o", thumbnail])
            // Stored 64 × 48, shown upright (orientation 6), never enlarged.
            #expect(made.status == 0 && made.stdout.contains("48x64 jpeg"), "\(made.stdout)\(made.stderr)")
            let preview = dir.appendingPathComponent("preview.jpg").path
            let large = try CLI.run(library + ["thumbnail", "DSC_0001.dng", "-o", preview, "--size", "2048"])
            #expect(large.status == 0 && large.stdout.contains("48x64 jpeg"), "\(large.stdout)\(large.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: preview)).prefix(2) == Data([0xFF, 0xD8]))
        }
    }

    @Test func aRawLibRawCannotReadIsNamedWithTheCause() throws {
        try Self.requireDecoders()
        try CLI.withTemporaryDirectory { dir in
            let library = ["--library", dir.appendingPathComponent("Test.albumlibrary").path]
            var bytes = MosaicDNG(width: 64, height: 48).bytes()
            // Compression (IFD0's fifth entry) says a scheme no camera uses: the file is whole, but
            // its sensor data cannot be read.
            bytes[8 + 2 + 12 * 4 + 8] = 0xE8
            bytes[8 + 2 + 12 * 4 + 9] = 0xFD
            let raw = dir.appendingPathComponent("Odd.dng")
            try Data(bytes).write(to: raw)
            let saved = try CLI.run(library + ["save", "--album", "Raw", raw.path])
            #expect(saved.status == 0, "\(saved.stderr)")
            let output = dir.appendingPathComponent("odd.jpg").path
            let failed = try CLI.run(library + ["thumbnail", "Odd.dng", "-o", output])
            #expect(failed.status == 1)
            #expect(
                failed.stderr.contains("Odd.dng") && failed.stderr.contains("LibRaw can read"), "\(failed.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
    }

    /// Runs `album --library LIBRARY ARGS` as the child of a Python process that waits for it: its
    /// exit status, its peak resident memory in MB (`ru_maxrss`, the kernel's VmHWM of it) and its
    /// output.
    static func measured(_ arguments: [String], library: String) throws -> (status: Int, peakMB: Double, output: String)
    {
        let measured = try ExternalTool.python(
            """
            import os, subprocess, sys
            child = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     env={'PATH': '/usr/bin:/bin', 'HOME': os.environ.get('TMPDIR', '/tmp')})
            out = child.stdout.read().decode()
            _, status, usage = os.wait4(child.pid, 0)
            print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)
            print(out.strip())
            """, modules: [], arguments: [CLI.binary.path, "--library", library] + arguments)
        let numbers = (measured.split(separator: "\n").first ?? "").split(separator: " ").compactMap { Int($0) }
        guard numbers.count == 2 else { return (-1, .infinity, measured) }
        return (numbers[0], Double(numbers[1]) / 1024, measured)
    }

    /// Developing a 24-megapixel raw at half size: the `album thumbnail` process's peak resident
    /// memory stays under 256 MB, where a full-size decode needs about 310 MB; and so does
    /// `album previews` making every kept size of two such raws, one photo per core (LibRaw
    /// develops one at a time).
    @Test func a24MegapixelRawIsDevelopedInLessThan256MB() throws {
        try Self.requireDecoders()
        try CLI.withTemporaryDirectory { dir in
            let library = dir.appendingPathComponent("Test.albumlibrary").path
            let raws = [("DSC_0024.dng", 1), ("DSC_0025.dng", 3)].map { name, orientation in
                (dir.appendingPathComponent(name), MosaicDNG(width: 6000, height: 4000, orientation: orientation))
            }
            for (url, raw) in raws { try Data(raw.bytes()).write(to: url) }
            let saved = try CLI.run(["--library", library, "save", "--album", "Raw"] + raws.map(\.0.path))
            #expect(saved.status == 0, "\(saved.stderr)")
            let output = dir.appendingPathComponent("thumb.jpg").path
            let thumbnail = try Self.measured(["thumbnail", "DSC_0024.dng", "-o", output], library: library)
            #expect(thumbnail.status == 0 && thumbnail.output.contains("256x171 jpeg"), "\(thumbnail.output)")
            #expect(
                thumbnail.peakMB < 256,
                "peak resident memory \(thumbnail.peakMB) MB developing a 24-megapixel raw: \(thumbnail.output)")
            let previews = try Self.measured(["previews"], library: library)
            #expect(previews.status == 0 && previews.output.contains("failed 0"), "\(previews.output)")
            #expect(
                previews.peakMB < 256,
                "peak resident memory \(previews.peakMB) MB making previews of two 24-megapixel raws: \(previews.output)"
            )
        }
    }

    /// LibRaw's two libraries (the build for threads and the other), which the loader tries in turn.
    static let libRawFiles = ["/usr/lib/x86_64-linux-gnu/libraw_r.so.20", "/usr/lib/x86_64-linux-gnu/libraw.so.20"]

    /// Runs `album --library LIBRARY ARGS` with LibRaw's libraries replaced by /dev/null in a
    /// private mount namespace.
    static func runWithoutLibRaw(_ arguments: [String], library: String) throws -> CLI.Run {
        try ThumbnailCLITests.runHiding(libRawFiles, arguments, library: library)
    }

    /// A 160 × 120 green JPEG, a camera's small thumbnail, made by Pillow.
    static func smallThumbnail() throws -> [UInt8] {
        let hex = try ExternalTool.python(
            """
            import io
            from PIL import Image
            out = io.BytesIO(); Image.new('RGB', (160, 120), (0, 160, 0)).save(out, 'JPEG', quality=90)
            print(out.getvalue().hex())
            """, modules: ["PIL"]
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }

    @Test(
        .enabled(if: getuid() == 0, "hiding LibRaw needs a private mount namespace (root; CI runs as root)"),
        .enabled(if: libRawFiles.allSatisfy { FileManager.default.fileExists(atPath: $0) }, "libraw20")
    )
    func aSmallStoredPreviewGivesWayToLibRawAndStandsInWithoutIt() throws {
        try Self.requireDecoders()
        let thumbnail = try Self.smallThumbnail()
        try CLI.withTemporaryDirectory { dir in
            let raw = dir.appendingPathComponent("DSC_0160.dng")
            try Data(MosaicDNG(width: 640, height: 480, preview: thumbnail).bytes()).write(to: raw)
            let bare = dir.appendingPathComponent("DSC_0000.dng")
            try Data(MosaicDNG(width: 640, height: 480).bytes()).write(to: bare)
            let library = dir.appendingPathComponent("Test.albumlibrary").path
            let saved = try CLI.run(["--library", library, "save", "--album", "Raw", raw.path])
            #expect(saved.status == 0, "\(saved.stderr)")
            // The stored 160 × 120 is smaller than a thumbnail: LibRaw develops the sensor data.
            let developed = try CLI.run(
                ["--library", library, "thumbnail", "DSC_0160.dng", "-o", dir.appendingPathComponent("a.jpg").path])
            #expect(developed.stdout.contains("256x192 jpeg"), "\(developed.stdout)\(developed.stderr)")

            // Without LibRaw (another library: the first keeps its thumbnail), the stored preview
            // stands in, however small; a raw storing none names the package; photos still work.
            let other = dir.appendingPathComponent("Other.albumlibrary").path
            let both = try CLI.run(
                ["--library", other, "save", "--album", "Raw", raw.path, bare.path, Fixture.jpeg.path])
            #expect(both.status == 0, "\(both.stderr)")
            let stored = try Self.runWithoutLibRaw(
                ["thumbnail", "DSC_0160.dng", "-o", dir.appendingPathComponent("b.jpg").path], library: other)
            #expect(stored.status == 0 && stored.stdout.contains("160x120 jpeg"), "\(stored.stdout)\(stored.stderr)")
            let none = dir.appendingPathComponent("c.jpg").path
            let missing = try Self.runWithoutLibRaw(["thumbnail", "DSC_0000.dng", "-o", none], library: other)
            #expect(missing.status == 1)
            #expect(
                missing.stderr.contains("DSC_0000.dng") && missing.stderr.contains("install libraw20"),
                "\(missing.stderr)")
            #expect(!FileManager.default.fileExists(atPath: none))
            let photo = try Self.runWithoutLibRaw(
                ["thumbnail", "harbour.jpg", "-o", dir.appendingPathComponent("d.jpg").path], library: other)
            #expect(photo.status == 0, "\(photo.stderr)")
        }
    }
}
