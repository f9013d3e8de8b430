import AlbumKitConformance
import AlbumTestSupport
import Foundation
import Testing

/// `album assets` and `album show` print a page as soon as it is read, not the whole listing at
/// the end: a user with a million photos gets the first line at once, in bounded memory.
@Suite(.onThreadsOfTheirOwn) struct StreamedListingCLITests {
    /// A 1×1 JPEG with a comment segment holding `tag`: bytes of their own, still a JPEG.
    static func jpeg(_ tag: String) -> Data { Fixture.tinyJPEG(tag) }

    /// A catalog with 501 photos in "Big" (more than a page of 500), saved by one `album save`.
    static func library(in dir: URL) throws -> [String] {
        let args = ["--library", dir.appendingPathComponent("Big.albumlibrary").path]
        let folder = dir.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for n in 0..<501 {
            try jpeg("streamed \(n)").write(to: folder.appendingPathComponent(String(format: "IMG_%04d.JPG", n)))
        }
        let saved = try CLI.run(args + ["save", "--quiet", "--album", "Big", "-r", folder.path])
        #expect(saved.status == 0, "\(saved.stderr)")
        return args
    }

    /// Starts `album ARGS`, reads the first byte it prints, then saves one more photo into "Big"
    /// and reads the rest. A listing printed as it is read has printed its first page (more than
    /// a pipe holds, so it waits there) before it reads the next: the photo saved meanwhile is in
    /// it. A listing printed at the end has read everything before its first byte: it is not.
    static func listWhileSaving(_ args: [String], _ listing: [String], in dir: URL) throws -> (String, String) {
        let process = try CLI.start(args + listing)
        let out = process.standardOutput as! Pipe
        let first = out.fileHandleForReading.readData(ofLength: 1)
        #expect(first.count == 1)
        let photo = dir.appendingPathComponent("IMG_LATE_\(listing[0]).JPG")
        try jpeg("saved while listing \(listing[0])").write(to: photo)
        let saved = try CLI.run(args + ["save", "--json", "--album", "Big", photo.path])
        #expect(saved.status == 0, "\(saved.stderr)")
        let id = try #require(saved.jsonLines().compactMap { $0["asset"] as? String }.first)
        let rest = out.fileHandleForReading.readDataToEndOfFile()
        _ = (process.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return (String(decoding: first + rest, as: UTF8.self), id)
    }

    @Test func assetsAndShowPrintEachPageBeforeReadingTheNext() throws {
        try CLI.withTemporaryDirectory { dir in
            let args = try Self.library(in: dir)
            let (assets, late) = try Self.listWhileSaving(args, ["assets", "--json"], in: dir)
            let listed = try #require(try JSONSerialization.jsonObject(with: Data(assets.utf8)) as? [[String: Any]])
            #expect(listed.count == 502)
            #expect(listed.last?["id"] as? String == late)

            let (show, later) = try Self.listWhileSaving(args, ["show", "Big", "--json"], in: dir)
            let shown = try #require(try JSONSerialization.jsonObject(with: Data(show.utf8)) as? [[String: Any]])
            #expect(shown.count == 503)
            #expect(shown.last?["id"] as? String == later)
            #expect(Set(shown.compactMap { $0["id"] as? String }).count == 503)
        }
    }

    /// Pages printed one after another are one table: one header, every row, the same columns.
    @Test func aTableOfSeveralPagesHasOneHeader() throws {
        try CLI.withTemporaryDirectory { dir in
            let args = try Self.library(in: dir)
            for listing in [["assets"], ["show", "Big"]] {
                let run = try CLI.run(args + listing)
                #expect(run.status == 0, "\(run.stderr)")
                #expect(run.lines.count == 502, "\(listing)")
                #expect(run.lines.filter { $0.hasPrefix("NAME ") }.count == 1, "\(listing)")
                #expect(run.lines.dropFirst().allSatisfy { $0.hasPrefix("IMG_") }, "\(listing)")
            }
            // Every page keeps the table's rules: ids cut to their start (8 characters, more only
            // where two ids of a page start alike), in full with -v, and --columns across pages.
            let ids = Set(
                try #require(CLI.run(args + ["assets", "--json"]).json() as? [[String: Any]]).compactMap {
                    $0["id"] as? String
                })
            let short = try CLI.run(args + ["show", "Big"])
            let shown = short.lines.dropFirst().compactMap { $0.split(separator: " ").last.map(String.init) }
            #expect(shown.count == 501)
            #expect(shown.allSatisfy { id in id.count >= 8 && id.count < 36 && ids.contains { $0.hasPrefix(id) } })
            let verbose = try CLI.run(args + ["show", "-v", "Big", "--columns", "id"])
            #expect(verbose.status == 0, "\(verbose.stderr)")
            #expect(Set(verbose.lines.dropFirst()) == ids)
            let limited = try CLI.run(args + ["assets", "--limit", "600", "--json"])
            #expect((limited.json() as? [[String: Any]])?.count == 501)
        }
    }
}
