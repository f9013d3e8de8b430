import Foundation
import AlbumTestSupport
import Testing

/// `albums` with each album's size and the days it was taken, `deleted` with the albums a photo
/// came from and when it expires, and `export --help` in export's own words.
@Suite(.onThreadsOfTheirOwn) struct AlbumDetailsCLITests {
    @Test(arguments: ["catalog", "folders"])
    func albumsShowTheirSizeAndTheDaysTheyWereTaken(kind: String) throws {
        try CLI.withTemporaryDirectory { dir in
            var args = try FindCLITests.library(in: dir)
            if kind == "folders" {
                // The same photos in a folder library (summarised from each album's listing).
                args = ["--folders", "--library", dir.appendingPathComponent("Pictures").path]
                let card = dir.appendingPathComponent("card")
                let saved = try CLI.run(args + ["save", "-q", "--album", "Card", "-r", card.path])
                #expect(saved.status == 0, "\(saved.stderr)")
            }
            #expect(try CLI.run(args + ["create", "Empty"]).status == 0)
            let json = try CLI.run(args + ["albums", "--json"])
            let albums = try #require(json.json() as? [[String: Any]], "\(json.stdout)")
            let card = try #require(albums.first { $0["title"] as? String == "Card" })
            let shown = try #require(try CLI.run(args + ["show", "Card", "--json"]).json() as? [[String: Any]])
            let sizes = shown.compactMap { $0["size"] as? Int }
            #expect(sizes.count == 7)
            #expect(card["size"] as? Int == sizes.reduce(0, +))
            #expect(card["firstTaken"] as? String == "2023-12-31T23:59:59")
            #expect(card["lastTaken"] as? String == "2024-07-14T15:00:00")
            let empty = try #require(albums.first { $0["title"] as? String == "Empty" })
            #expect(empty["firstTaken"] == nil && (empty["size"] as? Int ?? 0) == 0)
            let text = try CLI.run(args + ["albums"])
            #expect(text.lines.first?.contains("SIZE") == true && text.lines.first?.contains("TAKEN") == true)
            #expect(
                text.lines.contains { $0.contains("2023-12-31 – 2024-07-14") && $0.hasSuffix("Card") }, "\(text.stdout)"
            )
        }
    }

    @Test func deletedShowsTheAlbumsAPhotoCameFromAndWhenItExpires() throws {
        try CLI.withTemporaryDirectory { dir in
            let args = try FindCLITests.library(in: dir)
            #expect(try CLI.run(args + ["create", "Best"]).status == 0)
            #expect(try CLI.run(args + ["add", "Best", "IMG_0001.JPG"]).status == 0)
            let deleted = try CLI.run(args + ["delete-asset", "IMG_0001.JPG", "DSC_0005.JPG"])
            #expect(deleted.status == 0, "\(deleted.stderr)")
            let json = try CLI.run(args + ["deleted", "--json"])
            let items = try #require(json.json() as? [[String: Any]], "\(json.stdout)")
            let paris = try #require(items.first { $0["originalFilename"] as? String == "IMG_0001.JPG" })
            #expect((paris["albums"] as? [String]).map(Set.init) == ["Card", "Best"])
            let loose = try #require(items.first { $0["originalFilename"] as? String == "DSC_0005.JPG" })
            #expect((loose["albums"] as? [String])?.isEmpty == true)
            let dates = ISO8601DateFormatter()
            let at = try #require((paris["deletedAt"] as? String).flatMap(dates.date(from:)))
            let expires = try #require((paris["removedAfter"] as? String).flatMap(dates.date(from:)))
            #expect(expires.timeIntervalSince(at) == 30 * 86_400)
            let text = try CLI.run(args + ["deleted"])
            #expect(text.lines.first?.contains("EXPIRES") == true && text.lines.first?.contains("FROM ALBUMS") == true)
            #expect(text.lines.contains { $0.hasPrefix("IMG_0001.JPG") && $0.contains("Card") }, "\(text.stdout)")
            // Restored into those albums.
            let id = try #require(paris["id"] as? String)
            #expect(try CLI.run(args + ["restore", id]).status == 0)
            let best = try #require(try CLI.run(args + ["show", "Best", "--json"]).json() as? [[String: Any]])
            #expect(best.compactMap { $0["file"] as? String } == ["IMG_0001.JPG"])
        }
    }

    @Test func exportHelpDescribesItsDryRunInItsOwnWords() throws {
        let help = try CLI.run(["export", "--help"])
        let line = try #require(help.lines.first { $0.contains("--dry-run") })
        #expect(line.contains("export"), "\(help.stdout)")
    }
}
