import AlbumTestSupport
import Foundation
import Testing

#if os(Linux)
    import CLibRaw
#endif

/// AlbumKit writes two fields of LibRaw 0.20's `libraw_data_t` that its C interface has no call for
/// (half-size decoding, the camera's white balance) and reads a few others: the offsets it uses are
/// those a C program compiled against LibRaw's own header (libraw-dev) finds.
@Suite(.onThreadsOfTheirOwn) struct RawDecoderLayoutTests {
    @Test func theOffsetsWrittenAreThoseOfLibRawsHeader() throws {
        #if os(Linux)
            let header = "/usr/include/libraw/libraw.h"
            try ExternalTool.requireAvailable(
                FileManager.default.fileExists(atPath: header), "LibRaw's header", install: "apt-get install libraw-dev"
            )
            let compiler = try ExternalTool.require("cc")
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("albumkit-libraw-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }  // best effort: a temporary folder
            let fields = [
                "sizes.raw_height", "sizes.raw_width", "sizes.flip", "params.half_size", "params.use_camera_wb",
                "params.output_bps", "params.no_auto_bright", "params.max_raw_memory_mb",
            ]
            let program = """
                #include <stddef.h>
                #include <stdio.h>
                #include <libraw/libraw.h>
                int main(void) {
                \(fields.map { "    printf(\"%zu\\n\", offsetof(libraw_data_t, \($0)));" }.joined(separator: "\n"))
                    printf("%d %d\\n", LIBRAW_MAJOR_VERSION, LIBRAW_MINOR_VERSION);
                    return 0;
                }
                """
            try Data(program.utf8).write(to: folder.appendingPathComponent("layout.c"))
            #expect(try Self.run(compiler, ["-o", "layout", "layout.c"], in: folder).status == 0)
            let printed = try Self.run(folder.appendingPathComponent("layout").path, [], in: folder)
            #expect(printed.status == 0)
            let lines = printed.output.split(separator: "\n").map(String.init)
            // The header is that of the LibRaw the offsets were written for.
            #expect(lines.last == "0 20", "libraw-dev is LibRaw \(lines.last ?? "?"), not 0.20")
            let ours = [
                ALBUMKIT_LIBRAW_RAW_HEIGHT, ALBUMKIT_LIBRAW_RAW_WIDTH, ALBUMKIT_LIBRAW_FLIP, ALBUMKIT_LIBRAW_HALF_SIZE,
                ALBUMKIT_LIBRAW_USE_CAMERA_WB, ALBUMKIT_LIBRAW_OUTPUT_BPS, ALBUMKIT_LIBRAW_NO_AUTO_BRIGHT,
                ALBUMKIT_LIBRAW_MAX_RAW_MEMORY_MB,
            ].map { String($0) }
            #expect(Array(lines.prefix(fields.count)) == ours, "offsets of \(fields)")
        #endif
    }

    /// Runs `program ARGUMENTS` in `folder`: its status and standard output.
    static func run(_ program: String, _ arguments: [String], in folder: URL) throws -> (status: Int32, output: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
