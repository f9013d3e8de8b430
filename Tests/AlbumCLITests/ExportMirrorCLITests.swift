import AlbumKitConformance
import AlbumTestSupport
import Foundation
import Testing

/// `export --delete` mirrors an album into a folder: what an earlier export wrote and the album no
/// longer holds goes to the Trash (or for good with `--permanently`), and nothing else ever does.
@Suite(.onThreadsOfTheirOwn) struct ExportMirrorCLITests {
    /// The card's album `Trip` exported into `out`, next to a file of the user's made before.
    static func exported(_ kind: String, in dir: URL) throws -> (library: [String], out: URL) {
        let card = try CompanionCLITests.card(in: dir)
        let library = CompanionCLITests.library(kind, in: dir)
        #expect(try CLI.run(["import", "--album", "Trip", card.path] + library).status == 0)
        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: out.appendingPathComponent("notes.txt"))
        let first = try CLI.run(["export", "Trip", out.path] + library)
        #expect(first.status == 0, "\(first.stderr)")
        return (library, out)
    }

    static func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

    @Test(arguments: ["catalog", "folders"])
    func aPhotoLeavingTheAlbumLeavesTheFolderIntoTheTrash(kind: String) throws {
        try CLI.withTemporaryDirectory { dir in
            let (library, out) = try Self.exported(kind, in: dir)
            #expect(Self.exists(out.appendingPathComponent("IMG_0003.AAE")))
            #expect(try CLI.run(["remove", "Trip", "IMG_0003.JPG", "IMG_0002.JPG"] + library).status == 0)
            // The user edits one exported photo: it is theirs now.
            let edited = out.appendingPathComponent("IMG_0002.JPG")
            let handle = try FileHandle(forWritingTo: edited)
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("retouched".utf8))
            try handle.close()

            let data = dir.appendingPathComponent("data")
            let run = try CLI.run(
                ["export", "--delete", "Trip", out.path] + library, environment: ["XDG_DATA_HOME": data.path])
            #expect(run.status == 0, "\(run.stderr)")
            for name in ["IMG_0003.JPG", "IMG_0003.AAE", "IMG_0002.JPG.xmp"] {
                #expect(!Self.exists(out.appendingPathComponent(name)), "\(name): \(run.stdout)")
                #expect(Self.exists(data.appendingPathComponent("Trash/files/\(name)")), "\(name)")
                #expect(Self.exists(data.appendingPathComponent("Trash/info/\(name).trashinfo")), "\(name)")
                #expect(run.lines.contains { $0.hasPrefix("removed \(name) (to the Trash") }, "\(run.stdout)")
            }
            #expect(run.lines.last?.contains(", 3 removed") == true, "\(run.stdout)")
            #expect(Self.exists(edited), "an edited file is kept")
            #expect(run.stderr.contains("kept IMG_0002.JPG, no longer in the album: changed since"), "\(run.stderr)")
            #expect(try String(contentsOf: out.appendingPathComponent("notes.txt"), encoding: .utf8) == "mine")
            #expect(Self.exists(out.appendingPathComponent("IMG_0001.JPG")))
            #expect(Self.exists(out.appendingPathComponent("IMG_0001.CR2")))

            // Again: nothing more goes, and the edited file is no longer the export's.
            let again = try CLI.run(
                ["export", "--delete", "Trip", out.path] + library, environment: ["XDG_DATA_HOME": data.path])
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.lines.last?.contains(", 0 removed") == true, "\(again.stdout)")
            #expect(again.stderr.isEmpty, "\(again.stderr)")
            #expect(Self.exists(edited))
        }
    }

    @Test func aDryRunTellsAndPermanentlyRemovesForGood() throws {
        try CLI.withTemporaryDirectory { dir in
            let (library, out) = try Self.exported("catalog", in: dir)
            #expect(try CLI.run(["remove", "Trip", "IMG_0003.JPG"] + library).status == 0)
            let data = dir.appendingPathComponent("data")
            let plan = try CLI.run(
                ["export", "--delete", "--dry-run", "Trip", out.path] + library,
                environment: ["XDG_DATA_HOME": data.path])
            #expect(plan.status == 0, "\(plan.stderr)")
            #expect(plan.lines.contains("would remove IMG_0003.JPG"), "\(plan.stdout)")
            #expect(plan.lines.contains("would remove IMG_0003.AAE"), "\(plan.stdout)")
            #expect(plan.stderr.contains("2 would be removed"), "\(plan.stderr)")
            #expect(Self.exists(out.appendingPathComponent("IMG_0003.JPG")), "a dry run removes nothing")

            let run = try CLI.run(
                ["export", "--delete", "--permanently", "Trip", out.path] + library,
                environment: ["XDG_DATA_HOME": data.path])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.lines.contains("removed IMG_0003.JPG"), "\(run.stdout)")
            #expect(!Self.exists(out.appendingPathComponent("IMG_0003.JPG")))
            #expect(!Self.exists(out.appendingPathComponent("IMG_0003.AAE")))
            #expect(!Self.exists(data.appendingPathComponent("Trash/files/IMG_0003.JPG")), "for good, not trashed")
            let alone = try CLI.run(["export", "--permanently", "Trip", out.path] + library)
            #expect(alone.status == 2 && alone.stderr.contains("--permanently goes with --delete"), "\(alone.stderr)")
        }
    }

    /// A record written by someone else names files outside the folder, absolute paths and a link
    /// to a file outside, each with that file's true size and SHA-256: nothing is removed.
    @Test func aForgedRecordRemovesNothingOutsideTheFolder() throws {
        try CLI.withTemporaryDirectory { dir in
            let (library, out) = try Self.exported("catalog", in: dir)
            let victim = dir.appendingPathComponent("victim.txt")
            try Data("precious".utf8).write(to: victim)
            try FileManager.default.createSymbolicLink(
                at: out.appendingPathComponent("link.JPG"), withDestinationURL: victim)
            try FileManager.default.createDirectory(
                at: out.appendingPathComponent("folder.JPG"), withIntermediateDirectories: false)
            let recordURL = out.appendingPathComponent(".albumkit-export")
            let record = try JSONSerialization.jsonObject(with: Data(contentsOf: recordURL)) as? [String: Any]
            let albums = record?["albums"] as? [String: Any] ?? [:]
            #expect(albums.count == 1, "\(albums)")
            let albumID = try #require(albums.keys.first)
            let entries = (albums[albumID] as? [[String: Any]] ?? []).map { $0["name"] as? String ?? "" }
            #expect(!entries.contains("notes.txt"), "the user's file is not recorded as the export's")
            let size = 8
            let sha = CLI.sha256(victim)
            let forged: [[String: Any]] = ["../victim.txt", victim.path, "link.JPG", "folder.JPG", ".", ""].map {
                ["name": $0, "size": size, "sha256": sha]
            }
            let text = try JSONSerialization.data(withJSONObject: ["albums": [albumID: forged]])
            try text.write(to: recordURL)

            let data = dir.appendingPathComponent("data")
            let run = try CLI.run(
                ["export", "--delete", "Trip", out.path] + library, environment: ["XDG_DATA_HOME": data.path])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try String(contentsOf: victim, encoding: .utf8) == "precious")
            let link = try? FileManager.default.destinationOfSymbolicLink(
                atPath: out.appendingPathComponent("link.JPG").path)
            #expect(link == victim.path, "the link is kept")
            #expect(Self.exists(out.appendingPathComponent("folder.JPG")))
            #expect(run.lines.last?.contains(", 0 removed") == true, "\(run.stdout)")
            #expect(run.stderr.contains("kept link.JPG"), "\(run.stderr)")
            let trashed = (try? FileManager.default.contentsOfDirectory(atPath: data.path + "/Trash/files")) ?? []
            #expect(trashed.isEmpty, "\(trashed)")

            // A record that is not JSON: said, nothing removed, written anew.
            try Data("{not json".utf8).write(to: recordURL)
            let broken = try CLI.run(
                ["export", "--delete", "Trip", out.path] + library, environment: ["XDG_DATA_HOME": data.path])
            #expect(broken.status == 0, "\(broken.stderr)")
            #expect(broken.stderr.contains(".albumkit-export cannot be read"), "\(broken.stderr)")
            #expect((try? JSONSerialization.jsonObject(with: Data(contentsOf: recordURL))) != nil)
        }
    }

    /// An asset that cannot be exported this time still has its earlier copy in the folder: a run
    /// with a failure removes nothing.
    @Test func aFailedExportRemovesNothing() throws {
        try CLI.withTemporaryDirectory { dir in
            let (library, out) = try Self.exported("catalog", in: dir)
            #expect(try CLI.run(["remove", "Trip", "IMG_0003.JPG"] + library).status == 0)
            let originals = dir.appendingPathComponent("L.albumlibrary/originals")
            let files =
                FileManager.default.enumerator(at: originals, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension.uppercased() == "JPG" } ?? []
            #expect(!files.isEmpty)
            for file in files { try Data("damaged".utf8).write(to: file) }
            // A copy already there is recognised by its recorded SHA-256; one gone must be read.
            try FileManager.default.removeItem(at: out.appendingPathComponent("IMG_0001.JPG"))
            let data = dir.appendingPathComponent("data")
            let run = try CLI.run(
                ["export", "--delete", "Trip", out.path] + library, environment: ["XDG_DATA_HOME": data.path])
            #expect(run.status == 1, "\(run.stdout)\n\(run.stderr)")
            #expect(run.stderr.contains("nothing was removed"), "\(run.stderr)")
            #expect(Self.exists(out.appendingPathComponent("IMG_0003.JPG")))
            #expect(Self.exists(out.appendingPathComponent("IMG_0003.AAE")))
        }
    }

    @Test func renameNamesEachPhotoAndItsCompanionsFollow() throws {
        try CLI.withTemporaryDirectory { dir in
            let card = try CompanionCLITests.card(in: dir)
            let library = CompanionCLITests.library("catalog", in: dir)
            #expect(try CLI.run(["import", "--album", "Trip", card.path] + library).status == 0)
            let out = dir.appendingPathComponent("renamed")
            let template = "%Y {n} {name}"
            let run = try CLI.run(["export", "--rename", template, "Trip", out.path] + library)
            #expect(run.status == 0, "\(run.stderr)")
            // No capture date in these photos: the year they were added, today.
            let year = Calendar(identifier: .gregorian).component(.year, from: Date())
            let expected = [
                "1 IMG_0001.JPG", "1 IMG_0001.CR2", "1 IMG_0001.xmp", "2 IMG_0002.JPG", "2 IMG_0002.JPG.xmp",
                "3 IMG_0003.JPG", "3 IMG_0003.AAE",
            ].map { "\(year) \($0)" }
            let names = Set(try FileManager.default.contentsOfDirectory(atPath: out.path)).subtracting([
                ".albumkit-export"
            ])
            #expect(names == Set(expected), "\(names)")
            let again = try CLI.run(["export", "--rename", template, "Trip", out.path] + library)
            #expect(again.lines.last?.contains("exported 0 of 3") == true, "\(again.stdout)")
            #expect(again.lines.last?.contains("3 already there") == true, "\(again.stdout)")

            for bad in ["../{name}", "a/{name}", "%Q {name}"] {
                let refused = try CLI.run(["export", "--rename", bad, "Trip", out.path] + library)
                #expect(refused.status != 0 && refused.stderr.contains("--rename \(bad)"), "\(refused.stderr)")
            }
        }
    }
}
