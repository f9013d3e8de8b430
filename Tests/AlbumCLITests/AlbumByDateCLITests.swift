import AlbumTestSupport
import Foundation
import Testing

/// `--album-by-date FORMAT`: each file into the album its capture date names (the wall-clock time
/// the camera wrote), else its modification time; nested albums in a folder library; refused
/// formats and `--album` with it.
@Suite(.onThreadsOfTheirOwn) struct AlbumByDateCLITests {
    static func shell(_ command: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", command]
        process.environment = ["PATH": "/usr/bin:/bin", "TZ": "UTC"]
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// A card: `may.jpg` taken 2024-05-01 10:20, `dec.jpg` taken 2023-12-31 23:59 at +02:00 (the
    /// last day of 2023 where it was taken, 2023-12-31 21:59 in UTC: kept as written), `plain.jpg`
    /// without EXIF, last modified 2022-03-04 12:00 UTC, and `notes.txt`.
    static func card(in dir: URL) throws -> URL {
        let card = dir.appendingPathComponent("card/DCIM")
        try FileManager.default.createDirectory(at: card, withIntermediateDirectories: true)
        let p = card.path
        try ExternalTool.require("convert")
        try ExternalTool.require("exiftool")
        let script = """
            cd \(p) && convert -size 8x8 xc:red may.jpg && convert -size 8x8 xc:blue dec.jpg \
            && convert -size 8x8 xc:green plain.jpg \
            && exiftool -q -overwrite_original -DateTimeOriginal='2024:05:01 10:20:30' may.jpg \
            && exiftool -q -overwrite_original -DateTimeOriginal='2023:12:31 23:59:00' -OffsetTimeOriginal='+02:00' dec.jpg \
            && touch -d '2022-03-04 12:00' plain.jpg && echo notes > notes.txt
            """
        try #require(try shell(script) == 0)
        return card.deletingLastPathComponent()
    }

    static func library(_ kind: String, in dir: URL) -> [String] {
        kind == "catalog"
            ? ["--library", dir.appendingPathComponent("L.albumlibrary").path]
            : ["--folders", "--library", dir.appendingPathComponent("Pictures").path]
    }

    static let environment = ["TZ": "UTC"]

    @Test(arguments: ["catalog", "folders"])
    func filesLandInTheAlbumOfTheirDate(kind: String) throws {
        try CLI.withTemporaryDirectory { dir in
            let card = try Self.card(in: dir)
            let library = Self.library(kind, in: dir)
            let format = ["--album-by-date", "%Y/%m %b"]
            // The dry run names the album of each file, as the import then does.
            let dry = try CLI.run(["import", card.path, "-n"] + format + library, environment: Self.environment)
            #expect(dry.status == 0, "\(dry.stderr)")
            let expected = [
                "dec.jpg": "2023/12 Dec", "may.jpg": "2024/05 May", "plain.jpg": "2022/03 Mar",
            ]
            for (name, title) in expected {
                #expect(
                    dry.lines.contains {
                        $0.hasPrefix("would save") && $0.contains(name) && $0.hasSuffix("in \"\(title)\"")
                    },
                    "\(dry.stdout)")
            }
            let run = try CLI.run(["import", card.path] + format + library, environment: Self.environment)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.lines.count == 3, "\(run.stdout)")
            for (name, title) in expected {
                #expect(
                    run.lines.contains { $0.hasPrefix("saved") && $0.contains(name) && $0.contains("in \"\(title)\"") },
                    "\(run.stdout)")
                let show = try CLI.run(["show", title, "--json"] + library)
                let names = ((show.json() as? [[String: Any]]) ?? []).compactMap { $0["file"] as? String }
                #expect(names == [name], "\(title): \(show.stdout) \(show.stderr)")
            }
            #expect(run.stderr.contains("3 saved"), "\(run.stderr)")
            if kind == "folders" {
                // `/` nests: the year folder holds the month folder holding the photo.
                let pictures = dir.appendingPathComponent("Pictures")
                for path in ["2024/05 May/may.jpg", "2023/12 Dec/dec.jpg", "2022/03 Mar/plain.jpg"] {
                    #expect(
                        FileManager.default.fileExists(atPath: pictures.appendingPathComponent(path).path), "\(path)")
                }
            }
            // Again: each file already there, in its album, and no album made twice.
            let again = try CLI.run(["import", "-v", card.path] + format + library, environment: Self.environment)
            #expect(again.lines.allSatisfy { $0.hasPrefix("already in the library") }, "\(again.stdout)")
            let albums = try CLI.run(["albums", "--json"] + library)
            #expect(((albums.json() as? [[String: Any]]) ?? []).count == 3, "\(albums.stdout)")
        }
    }

    @Test func refusesFormatsWithoutATitleAndAlbumTogether() throws {
        try CLI.withTemporaryDirectory { dir in
            let card = try Self.card(in: dir)
            let library = Self.library("catalog", in: dir)
            for format in ["", "  ", "/%Y", "%Y//%m", "%q", "%Y%"] {
                let run = try CLI.run(["import", card.path, "--album-by-date", format] + library)
                #expect(run.status == 2, "\(format): \(run.status) \(run.stderr)")
                #expect(run.stderr.contains("--album-by-date"), "\(format): \(run.stderr)")
            }
            let both = try CLI.run(["save", "-r", card.path, "--album", "Trip", "--album-by-date", "%Y"] + library)
            #expect(both.status == 2, "\(both.stderr)")
            #expect(both.stderr.contains("--album and --album-by-date"), "\(both.stderr)")
            // Nothing was written.
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("L.albumlibrary").path))
        }
    }
}
