import AlbumTestSupport
import Foundation
import Testing

@testable import AlbumKitMedia

/// Debian's decoders and tools (djpeg, pngcheck, tiffinfo, ffmpeg, ffprobe, exiftool, dcraw,
/// raw-identify, giftext, ImageMagick's convert), run as real processes on files the tests write.
/// CI installs them (.ci/run); a missing one skips the test that needs it elsewhere and fails it in CI
/// (``ExternalTool``).
enum Decoders {
    /// What a tool printed and how it ended.
    struct Run {
        var status: Int32
        var output: String
        var errors: String
        /// The tool ran to completion (not killed by a signal).
        var ran: Bool
    }

    /// Runs `tool` with `arguments`; its output goes to files, so a large output cannot block it.
    static func run(_ tool: String, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws
        -> Run
    {
        let path = try ExternalTool.require(tool, sourceLocation: sourceLocation)
        let directory = try scratch()
        let out = directory.appendingPathComponent("stdout")
        let err = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        defer { try? FileManager.default.removeItem(at: directory) }
        return Run(
            status: process.terminationStatus,
            output: String(decoding: try Data(contentsOf: out), as: UTF8.self),
            errors: String(decoding: try Data(contentsOf: err), as: UTF8.self),
            ran: process.terminationReason == .exit)
    }

    /// One directory per test run for every file the tests write, removed when the run exits.
    static let root: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "albumkit-media-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: url)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: Decoders.root) }
        return url
    }()

    /// A new empty directory in ``root``.
    static func scratch() throws -> URL {
        let url = root.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `bytes` to a new file named `name` and returns its path.
    static func write(_ bytes: [UInt8], name: String) throws -> String {
        let url = try scratch().appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// A file ffmpeg makes from its test pattern (`arguments` go before the output name).
    static func ffmpeg(_ name: String, input: String = "testsrc=size=64x48:rate=5", _ arguments: [String]) throws
        -> [UInt8]
    {
        let path = try scratch().appendingPathComponent(name).path
        let run = try run(
            "ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", input] + arguments + [path])
        guard run.status == 0 else { throw ToolFailed(tool: "ffmpeg", run: run) }
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    struct ToolFailed: Error, CustomStringConvertible {
        var tool: String
        var run: Run
        var description: String { "\(tool) failed (\(run.status)): \(run.errors)" }
    }

    /// exiftool's reading of `path` (`-json -n -G1 -a`), one object.
    static func exiftool(_ path: String, _ tags: [String] = []) throws -> [String: Any] {
        let run = try run("exiftool", ["-json", "-n", "-G1", "-a"] + tags + [path])
        let list = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [[String: Any]]
        return list?.first ?? [:]
    }

    /// The number of frames ffprobe decodes from the first video stream, or `nil` when it decodes none.
    static func framesDecoded(_ path: String) throws -> Int? {
        let run = try run(
            "ffprobe",
            [
                "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames",
                "-of",
                "csv=p=0", path,
            ])
        return Int(run.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Whether ffmpeg decodes every frame of `path` with no decoding error (`-xerror`).
    static func ffmpegDecodes(_ path: String) throws -> Bool {
        let run = try run("ffmpeg", ["-v", "error", "-xerror", "-i", path, "-f", "null", "-"])
        return run.status == 0 && !run.errors.contains("rror")
    }

    /// The video/audio streams ffprobe lists, as `codec_type` strings (cover art is `video` with
    /// `attached_pic`, listed as `cover`).
    static func streams(_ path: String) throws -> [String] {
        let run = try run(
            "ffprobe",
            [
                "-v", "error", "-show_entries", "stream=codec_type:stream_disposition=attached_pic", "-of", "csv=p=0",
                path,
            ])
        return run.output.split(separator: "\n").map { line in
            let fields = line.split(separator: ",")
            return fields.count > 1 && fields[1] == "1" ? "cover" : String(fields.first ?? "")
        }
    }
}

/// Inspects a file on disk.
func inspect(path: String) -> Result<MediaMetadata, MediaInspectionError> {
    let bytes = Array((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data())
    return inspect(bytes)
}

extension Array where Element == UInt8 {
    /// The index of the first `needle` at or after `from`.
    func firstIndex(of needle: [UInt8], from: Int = 0) -> Int? {
        guard needle.count <= count else { return nil }
        var i = from
        while i <= count - needle.count {
            if self[i] == needle[0], Array(self[i..<i + needle.count]) == needle { return i }
            i += 1
        }
        return nil
    }

    static func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func be32(_ v: Int) -> [UInt8] {
        [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
    static func le16(_ v: Int) -> [UInt8] { be16(v).reversed() }
    static func le32(_ v: Int) -> [UInt8] { be32(v).reversed() }
}
