import AlbumTestSupport
import Foundation
import Testing

/// `album thumbnail` of raw files that store no preview: the real binary develops them with LibRaw
/// (DNGs written by the test, ``MosaicDNG``), turned as their orientation says, within the memory a
/// grid can afford, and names a raw file LibRaw cannot read.
@Suite struct RawPictureCLITests {
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

    /// Developing a 24-megapixel raw at half size: the `album thumbnail` process's peak resident
    /// memory (its `ru_maxrss`, the kernel's VmHWM of it, read by the Python parent that waits
    /// for it) stays under 256 MB, where a full-size decode needs about 310 MB.
    @Test func a24MegapixelRawIsDevelopedInLessThan256MB() throws {
        try Self.requireDecoders()
        try CLI.withTemporaryDirectory { dir in
            let libraryPath = dir.appendingPathComponent("Test.albumlibrary").path
            let raw = dir.appendingPathComponent("DSC_0024.dng")
            try Data(MosaicDNG(width: 6000, height: 4000).bytes()).write(to: raw)
            let saved = try CLI.run(["--library", libraryPath, "save", "--album", "Raw", raw.path])
            #expect(saved.status == 0, "\(saved.stderr)")
            let output = dir.appendingPathComponent("thumb.jpg").path
            let measured = try ExternalTool.python(
                """
                import os, subprocess, sys, time
                start = time.monotonic()
                child = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                         env={'PATH': '/usr/bin:/bin', 'HOME': os.environ.get('TMPDIR', '/tmp')})
                out = child.stdout.read().decode()
                _, status, usage = os.wait4(child.pid, 0)
                print(os.waitstatus_to_exitcode(status), usage.ru_maxrss, round(time.monotonic() - start, 2))
                print(out.strip())
                """, modules: [],
                arguments: [CLI.binary.path, "--library", libraryPath, "thumbnail", "DSC_0024.dng", "-o", output])
            let lines = measured.split(separator: "\n")
            let numbers = (lines.first ?? "").split(separator: " ").compactMap { Double($0) }
            #expect(numbers.count == 3 && numbers[0] == 0, "\(measured)")
            #expect(measured.contains("256x171 jpeg"), "\(measured)")
            let peakMB = (numbers.count == 3 ? numbers[1] : .infinity) / 1024
            #expect(peakMB < 256, "peak resident memory \(peakMB) MB developing a 24-megapixel raw: \(measured)")
        }
    }
}
