import Foundation
import AlbumTestSupport
import Testing

/// Finding a photo: `show` and `assets` keep what `--from`, `--to`, `--camera`, `--kind`, `--near`,
/// `--box`, `--name` and `--album` ask for, list photos of one time by name, and show the times
/// in one style with their zone said once.
@Suite(.onThreadsOfTheirOwn) struct FindCLITests {
    /// Two Canon photos of May 2024 (one in Paris), a Nikon photo of June in London, one of New
    /// Year's Eve 2023, and three taken in the same second named C, A, B (in that order of saving),
    /// all in "Card"; and one Nikon photo outside any album.
    static func library(in dir: URL) throws -> [String] {
        let args = ["--library", dir.appendingPathComponent("Find.albumlibrary").path]
        let card = dir.appendingPathComponent("card")
        try FileManager.default.createDirectory(at: card, withIntermediateDirectories: true)
        let canon = ExifJPEG(make: "Canon", model: "Canon EOS R6")
        let nikon = ExifJPEG(make: "NIKON CORPORATION", model: "NIKON Z 6")
        var photos: [(String, ExifJPEG)] = []
        var paris = canon
        (paris.taken, paris.offset, paris.latitude, paris.longitude) = (
            "2024:05:01 10:00:00", "+02:00", 48.8566, 2.3522
        )
        photos.append(("IMG_0001.JPG", paris))
        var later = canon
        (later.taken, later.offset) = ("2024:05:20 09:00:00", "+02:00")
        photos.append(("IMG_0002.JPG", later))
        var london = nikon
        (london.taken, london.offset, london.latitude, london.longitude) = (
            "2024:06:02 12:00:00", "+02:00", 51.5074, -0.1278
        )
        photos.append(("IMG_0003.JPG", london))
        var eve = nikon
        (eve.taken, eve.offset) = ("2023:12:31 23:59:59", "+02:00")
        photos.append(("DSC_0004.JPG", eve))
        for name in ["C.JPG", "A.JPG", "B.JPG"] {
            var burst = canon
            (burst.taken, burst.offset) = ("2024:07:14 15:00:00", "+02:00")
            photos.append((name, burst))
        }
        for (name, exif) in photos {
            try exif.data(tag: name).write(to: card.appendingPathComponent(name))
        }
        // One at a time, in this order: the same second's photos are saved C, A, B.
        for (name, _) in photos {
            let saved = try CLI.run(
                args + ["save", "--quiet", "--album", "Card", card.appendingPathComponent(name).path])
            #expect(saved.status == 0, "\(saved.stderr)")
        }
        var loose = nikon
        (loose.taken, loose.offset) = ("2024:05:10 08:00:00", "+02:00")
        let outside = dir.appendingPathComponent("DSC_0005.JPG")
        try loose.data(tag: "outside").write(to: outside)
        let saved = try CLI.run(args + ["save", "--quiet", outside.path])
        #expect(saved.status == 0, "\(saved.stderr)")
        return args
    }

    static func names(_ run: CLI.Run) -> [String] {
        ((run.json() as? [[String: Any]]) ?? []).compactMap { $0["file"] as? String }
    }

    @Test func assetsAndShowKeepWhatTheFiltersAskFor() throws {
        try CLI.withTemporaryDirectory { dir in
            let args = try Self.library(in: dir)
            func listed(_ options: [String]) throws -> [String] {
                let run = try CLI.run(args + options + ["--json"])
                #expect(run.status == 0, "\(options): \(run.stderr)")
                return Self.names(run)
            }
            // Last May's photos from one camera, the camera named as the user remembers it.
            #expect(
                try listed(["assets", "--order", "taken", "--from", "2024-05", "--to", "2024-05", "--camera", "eos r6"])
                    == ["IMG_0001.JPG", "IMG_0002.JPG"])
            // May from any camera: the photo outside every album too, but not with --album.
            #expect(
                try listed(["assets", "--order", "taken", "--from", "2024-05-01", "--to", "2024-05-31"])
                    == ["IMG_0001.JPG", "DSC_0005.JPG", "IMG_0002.JPG"])
            #expect(
                try listed(["assets", "--order", "taken", "--from", "2024-05", "--to", "2024-05", "--album", "Card"])
                    == ["IMG_0001.JPG", "IMG_0002.JPG"])
            // A year: from its first second to its last.
            #expect(try listed(["assets", "--from", "2023", "--to", "2023"]) == ["DSC_0004.JPG"])
            #expect(try listed(["assets", "--to", "2023-12-31", "--camera", "nikon"]) == ["DSC_0004.JPG"])
            // Places: near Paris, and a box around London.
            #expect(try listed(["show", "Card", "--near", "48.85,2.35,5"]) == ["IMG_0001.JPG"])
            #expect(try listed(["assets", "--near", "48.8,2.35"]).isEmpty)  // 6 km away, the default is 1 km
            #expect(try listed(["assets", "--near", "48.8,2.35,10"]) == ["IMG_0001.JPG"])
            #expect(try listed(["assets", "--box", "51,-1,52,1"]) == ["IMG_0003.JPG"])
            // Names, case aside.
            #expect(try listed(["assets", "--name", "img_000[12]*"]) == ["IMG_0001.JPG", "IMG_0002.JPG"])
            #expect(try listed(["show", "Card", "--name", "dsc*"]) == ["DSC_0004.JPG"])
            // Kinds.
            #expect(try listed(["assets", "--kind", "video"]).isEmpty)
            #expect(try listed(["assets", "--kind", "raw"]).isEmpty)
            #expect(try listed(["assets", "--kind", "photo"]).count == 8)
            // Nothing found is said so, not called an empty library.
            let none = try CLI.run(args + ["assets", "--kind", "video"])
            #expect(none.stdout.contains("No photos or videos match."))
            let emptyAlbum = try CLI.run(args + ["show", "Card", "--camera", "Leica"])
            #expect(emptyAlbum.stdout.contains("Nothing in the album \"Card\" matches."))
        }
    }

    @Test func photosOfOneTimeAreListedByNameAndTheZoneIsSaidOnce() throws {
        try CLI.withTemporaryDirectory { dir in
            let args = try Self.library(in: dir)
            // Saved C, A, B in the same second: listed by name, whatever their ids.
            let taken = try CLI.run(args + ["assets", "--order", "taken", "--from", "2024-07", "--json"])
            #expect(Self.names(taken) == ["A.JPG", "B.JPG", "C.JPG"])
            let show = try CLI.run(args + ["show", "Card", "--order", "taken", "--json"])
            #expect(
                Self.names(show) == [
                    "DSC_0004.JPG", "IMG_0001.JPG", "IMG_0002.JPG", "IMG_0003.JPG", "A.JPG", "B.JPG", "C.JPG",
                ])
            // The album's own order stays the order of saving.
            #expect(
                Array(Self.names(try CLI.run(args + ["show", "Card", "--json"])).suffix(3)) == [
                    "C.JPG", "A.JPG", "B.JPG",
                ])
            // Text: one style, `2024-05-01 10:00:00`, the shared zone in the header only.
            let text = try CLI.run(args + ["show", "Card", "--columns", "name,taken"])
            #expect(text.status == 0, "\(text.stderr)")
            #expect(text.lines.first?.contains("TAKEN (+02:00)") == true, "\(text.stdout)")
            let paris = try #require(text.lines.first { $0.hasPrefix("IMG_0001.JPG") })
            #expect(paris.contains("2024-05-01 10:00:00"))
            #expect(!paris.contains("+02:00") && !paris.contains("T10"))
        }
    }

    @Test func filtersWithBadValuesAreUsageErrorsNamingTheValue() throws {
        try CLI.withTemporaryDirectory { dir in
            let args = ["--library", dir.appendingPathComponent("None.albumlibrary").path]
            let cases: [([String], String)] = [
                (["assets", "--from", "2024-13"], "2024-13"),
                (["assets", "--from", "May"], "YYYY-MM-DD"),
                (["assets", "--from", "2024-06", "--to", "2024-05"], "before they start"),
                (["assets", "--near", "100,0"], "latitude"),
                (["assets", "--near", "48,2,0"], "more than 0 km"),
                (["assets", "--box", "52,1,51,-1"], "SOUTH,WEST,NORTH,EAST"),
                (["assets", "--kind", "selfie"], "'selfie'"),
                (["show", "X", "--camera", " "], "--camera"),
            ]
            for (options, words) in cases {
                let run = try CLI.run(args + options)
                #expect(run.status == 2, "\(options): \(run.stderr)")
                #expect(run.stderr.contains(words), "\(options): \(run.stderr)")
            }
        }
    }
}
