import Foundation
import AlbumTestSupport
import Testing

/// A photo edited in place (same name, same capture time, other bytes) imported again is told as a
/// new version of the one already in the album, on its line and in the summary; `--replace` keeps
/// the new one and puts the earlier in recently deleted.
@Suite(.onThreadsOfTheirOwn) struct NewVersionCLITests {
    @Test func aNewVersionIsToldAndReplaceKeepsOnlyIt() throws {
        try CLI.withTemporaryDirectory { dir in
            let args = ["--library", dir.appendingPathComponent("V.albumlibrary").path]
            let card = dir.appendingPathComponent("card")
            try FileManager.default.createDirectory(at: card, withIntermediateDirectories: true)
            var exif = ExifJPEG(make: "Canon", model: "Canon EOS R6")
            (exif.taken, exif.offset) = ("2024:05:01 10:00:00", "+02:00")
            let photo = card.appendingPathComponent("IMG_0008.JPG")
            try exif.data(tag: "as shot").write(to: photo)
            try exif.data(tag: "other").write(to: card.appendingPathComponent("IMG_0009.JPG"))
            #expect(try CLI.run(args + ["import", "-q", "--album", "Card", card.path]).status == 0)
            // Edited in place: other bytes, the same name and capture time.
            try exif.data(tag: "edited in place").write(to: photo)
            let again = try CLI.run(args + ["import", "--album", "Card", card.path])
            #expect(again.status == 0, "\(again.stderr)")
            let line = try #require(again.lines.first { $0.contains("IMG_0008.JPG") }, "\(again.stdout)")
            #expect(line.hasPrefix("saved ") && line.contains("a new version of the one already in the album"))
            #expect(again.stderr.contains("1 new version of a photo already in the album"), "\(again.stderr)")
            func names() throws -> [String] {
                let show = try CLI.run(args + ["show", "Card", "--json"])
                return ((show.json() as? [[String: Any]]) ?? []).compactMap { $0["file"] as? String }.sorted()
            }
            #expect(try names() == ["IMG_0008.JPG", "IMG_0008.JPG", "IMG_0009.JPG"])
            // Edited again, with --replace: only the newest stays, the others are in recently deleted.
            try exif.data(tag: "edited twice").write(to: photo)
            let replace = try CLI.run(args + ["import", "--replace", "--album", "Card", card.path])
            #expect(replace.status == 0, "\(replace.stderr)")
            #expect(
                replace.stderr.contains(
                    "1 new version of a photo already in the album (the earlier in recently deleted)"),
                "\(replace.stderr)")
            #expect(try names() == ["IMG_0008.JPG", "IMG_0009.JPG"])
            let deleted = try CLI.run(args + ["deleted", "--json"])
            let items = (deleted.json() as? [[String: Any]]) ?? []
            #expect(
                items.filter { $0["originalFilename"] as? String == "IMG_0008.JPG" }.count == 2, "\(deleted.stdout)")
            // A file of another capture time under the same name is no version of it.
            var later = exif
            later.taken = "2024:05:02 10:00:00"
            try later.data(tag: "next day").write(to: card.appendingPathComponent("IMG_0009.JPG"))
            let other = try CLI.run(args + ["import", "--album", "Card", card.path])
            #expect(!other.stdout.contains("new version") && !other.stderr.contains("new version"), "\(other.stdout)")
        }
    }

    /// The new version is found by name whatever the case of A–Z (a camera's `IMG_0008.JPG`, an
    /// editor's `img_0008.jpg`), in a catalog and in a folder library, for a lone file and in a
    /// batch: the album is looked up by the names saved, not read whole.
    @Test(arguments: ["catalog", "folders"])
    func aNewVersionIsFoundWhateverTheCaseOfItsName(_ kind: String) throws {
        try CLI.withTemporaryDirectory { dir in
            let args =
                kind == "folders"
                ? ["--library", dir.appendingPathComponent("Pictures").path, "--folders"]
                : ["--library", dir.appendingPathComponent("V.albumlibrary").path]
            let card = dir.appendingPathComponent("card")
            try FileManager.default.createDirectory(at: card, withIntermediateDirectories: true)
            var exif = ExifJPEG(make: "Canon", model: "Canon EOS R6")
            (exif.taken, exif.offset) = ("2024:05:01 10:00:00", "+02:00")
            let photo = card.appendingPathComponent("IMG_0008.JPG")
            try exif.data(tag: "as shot").write(to: photo)
            let first = try CLI.run(args + ["save", "--album", "Card", photo.path])
            #expect(first.status == 0, "\(first.stderr)")
            #expect(!first.stdout.contains("new version"), "\(first.stdout)")
            // Edited and renamed by another program: other bytes, the name in lower case.
            let edited = card.appendingPathComponent("img_0008.jpg")
            try FileManager.default.removeItem(at: photo)
            try exif.data(tag: "edited").write(to: edited)
            let lone = try CLI.run(args + ["save", "--album", "Card", edited.path])
            #expect(lone.status == 0, "\(lone.stderr)")
            #expect(lone.stdout.contains("a new version of the one already in the album"), "\(lone.stdout)")
            // In a batch, with other files: told for that one only.
            try exif.data(tag: "edited twice").write(to: edited)
            var other = exif
            other.taken = "2024:05:02 10:00:00"
            try other.data(tag: "another").write(to: card.appendingPathComponent("IMG_0010.JPG"))
            let batch = try CLI.run(args + ["import", "--album", "Card", card.path])
            #expect(batch.status == 0, "\(batch.stderr)")
            let lines = batch.lines.filter { $0.contains("a new version") }
            #expect(lines.count == 1 && lines.first?.contains("img_0008.jpg") == true, "\(batch.stdout)")
            #expect(batch.stderr.contains("1 new version of a photo already in the album"), "\(batch.stderr)")
        }
    }
}
