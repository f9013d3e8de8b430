import AlbumKitCore
import AlbumTestSupport
import Foundation
import Testing

/// Thumbnails and previews of real files other projects test with, judged by the field's own
/// decoders: runs when `ALBUMKIT_PYPI_CORPUS` names a folder of unpacked source distributions
/// (`Scripts/media/pypi-corpus.sh --previews` downloads and unpacks them, then runs this test).
///
/// The folder is saved into a new catalog through `album save`, then `album previews --json` makes
/// every size under a time limit: it must neither hang nor crash (exit 0, or 1 when some failed).
/// Each failure is put to Pillow (with pillow-heif) or, for a video, ffmpeg
/// (`Scripts/media/preview-oracle.py`): a file a viewer opens must not fail. Every kept thumbnail and
/// preview must be a JPEG Pillow opens, within its size and never larger than its original.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["ALBUMKIT_PYPI_CORPUS"] != nil), .onThreadsOfTheirOwn)
struct PyPICorpusPreviewTests {
    /// The longest `album previews` may take on the corpus (its 850 photos and videos took under
    /// two minutes in a debug build on 2 cores at load 10–17).
    static let timeLimit = 1200

    @Test func everyFileAViewerOpensGetsAThumbnailAndAPreview() throws {
        let root = try #require(ProcessInfo.processInfo.environment["ALBUMKIT_PYPI_CORPUS"])
        try ExternalTool.requireLibvips()
        _ = try ExternalTool.require("ffmpeg")
        let oracle = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("Scripts/media/preview-oracle.py"), encoding: .utf8)
        try CLI.withTemporaryDirectory { directory in
            let library = directory.appendingPathComponent("corpus.albumlibrary").path
            let files = FileManager.default.enumerator(atPath: root)?.allObjects.count ?? 0
            let saved = try CLI.run(["save", "--library", library, "--catalog", "--album", "Corpus", "-r", root])
            // Exit 1: some files are no photo or video (the corpus is whole source trees).
            #expect(saved.status == 0 || saved.status == 1, "album save: \(saved.stderr.suffix(2000))")
            let made = try Self.runWithTimeLimit(["previews", "--library", library, "--json"])
            #expect(
                made.status == 0 || made.status == 1,
                "album previews ended with \(made.status): \(made.stderr.suffix(2000))")
            let report = directory.appendingPathComponent("previews.json")
            try Data(made.stdout.utf8).write(to: report)
            let verdict = try ExternalTool.python(
                oracle, modules: ["PIL", "pillow_heif"], arguments: [report.path, library])
            let judged = try #require(
                try JSONSerialization.jsonObject(with: Data(verdict.utf8)) as? [String: Any], "\(verdict)")
            let problems = judged["problems"] as? [String] ?? []
            let savedCount = saved.stdout.split(separator: "\n").count
            print(
                "PyPI corpus previews: \(files) files, \(savedCount) lines of album save, made \(judged["made"] ?? 0), "
                    + "failed \(judged["failed"] ?? 0), failed that a viewer opens \(judged["failedViewerOpens"] ?? 0), "
                    + "derivatives checked \(judged["derivativesChecked"] ?? 0)")
            print("problems (\(problems.count)):\n" + problems.joined(separator: "\n"))
            #expect((judged["derivativesChecked"] as? Int ?? 0) > 0)
            #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        }
    }

    /// `album ARGUMENTS` run through `timeout`, killed (status 137) after ``timeLimit`` seconds.
    static func runWithTimeLimit(_ arguments: [String]) throws -> CLI.Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["-s", "KILL", "\(timeLimit)", CLI.binary.path] + arguments
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading
        let collected = Locked(Data())
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            let data = out.readDataToEndOfFile()
            collected.withLock { $0 = data }
            group.leave()
        }
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return CLI.Run(
            status: process.terminationStatus, stdout: String(decoding: collected.withLock { $0 }, as: UTF8.self),
            stderr: String(decoding: errorData, as: UTF8.self))
    }
}
