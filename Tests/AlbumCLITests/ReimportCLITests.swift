import AlbumKitConformance
import AlbumTestSupport
import Foundation
import Testing

/// Importing a camera card again, as photographers do: what the library already holds is
/// recognised without being copied (name, size and modification time, or `--checksum`), said to be
/// "already in the library" and counted apart, added to the album asked for; `--dry-run` predicts
/// the real run line for line; `-q` prints nothing when all went well.
///
/// Before: a re-import read and hashed every file and the library's copy, and said "2000 of 2000
/// saved" while nothing was stored; a first import of a card holding two duplicates said "11 of 16
/// saved" while the album held 9; `--dry-run` said every file would be saved.
@Suite(.onThreadsOfTheirOwn) struct ReimportCLITests {
    /// The library kinds a card is imported into: its `--library` arguments.
    static let kinds: [String] = ["catalog", "folders"]

    static func library(_ kind: String, in dir: URL) -> [String] {
        kind == "catalog"
            ? ["--library", dir.appendingPathComponent("L.albumlibrary").path]
            : ["--folders", "--library", dir.appendingPathComponent("Pictures").path]
    }

    /// A camera card: `DCIM/100CANON` with five distinct photos and a text file, `DCIM/101CANON`
    /// with a copy of the second photo under another name. Every file has the same whole-second
    /// modification time (so that a test can put it back exactly).
    static func card(in dir: URL) throws -> URL {
        let card = dir.appendingPathComponent("card")
        let first = card.appendingPathComponent("DCIM/100CANON")
        let second = card.appendingPathComponent("DCIM/101CANON")
        for folder in [first, second] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        for i in 1...5 {
            try Fixture.uniqueJPEG("card\(i)").write(to: first.appendingPathComponent("IMG_000\(i).JPG"))
        }
        try Fixture.uniqueJPEG("card2").write(to: second.appendingPathComponent("COPY_0002.JPG"))
        try Data("notes".utf8).write(to: first.appendingPathComponent("notes.txt"))
        for name in [
            "100CANON/IMG_0001.JPG", "100CANON/IMG_0002.JPG", "100CANON/IMG_0003.JPG",
            "100CANON/IMG_0004.JPG", "100CANON/IMG_0005.JPG", "100CANON/notes.txt", "101CANON/COPY_0002.JPG",
        ] {
            try setTime(of: card.appendingPathComponent("DCIM/" + name))
        }
        return card
    }

    static let cardTime = Date(timeIntervalSince1970: 1_700_000_000)

    static func setTime(of url: URL) throws {
        try FileManager.default.setAttributes([.modificationDate: cardTime], ofItemAtPath: url.path)
    }

    /// Each line of a run's text output as (what happened, file): "saved" or "would save" → "new",
    /// "already in the library" → "already".
    static func verdicts(_ run: CLI.Run) -> [String] {
        run.lines.map { line in
            for (prefix, verdict) in [
                ("saved ", "new"), ("would save ", "new"), ("already in the library: ", "already"),
            ]
            where line.hasPrefix(prefix) {
                let rest = line.dropFirst(prefix.count)
                return verdict + " " + String(rest.prefix { $0 != " " })
            }
            return "? " + line
        }
    }

    /// The assets of the album `title`, by id.
    static func albumAssets(_ title: String, _ library: [String]) throws -> [String] {
        let show = try CLI.run(["show", title, "--json"] + library)
        return ((show.json() as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }
    }

    @Test(arguments: kinds)
    func reimportSaysAlreadyInTheLibraryAndCountsTrue(kind: String) throws {
        try CLI.withTemporaryDirectory { dir in
            let card = try Self.card(in: dir)
            let library = Self.library(kind, in: dir)
            // The first import: the copy under another name is the same photo, not a sixth one; -v
            // lists it (and ids).
            let first = try CLI.run(["import", "-v", "--album", "Trip", card.path] + library)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(Self.verdicts(first).filter { $0.hasPrefix("new ") }.count == 5)
            #expect(
                Self.verdicts(first).filter { $0.hasPrefix("already ") } == [
                    "already \(card.path)/DCIM/101CANON/COPY_0002.JPG"
                ])
            #expect(first.stderr.contains("album: 5 saved, 1 already in the library, 1 skipped (not photos or videos)"))
            #expect(try Self.albumAssets("Trip", library).count == 5)
            // Again: every photo already there, nothing stored, the album unchanged; said in the
            // summary alone.
            let again = try CLI.run(["import", "--album", "Trip", card.path] + library)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(again.stdout.isEmpty, "\(again.stdout)")
            #expect(again.stderr.contains("album: 0 saved, 6 already in the library, 1 skipped (not photos or videos)"))
            // -v lists each, with its id, the album's outcome said once.
            let listed = try CLI.run(["import", "-v", "--album", "Trip", card.path] + library)
            #expect(listed.lines.count == 6)
            #expect(
                listed.lines.allSatisfy {
                    $0.hasPrefix("already in the library: ") && $0.contains(" in \"Trip\"") && $0.contains(" as ")
                })
            #expect(listed.stdout.components(separatedBy: "(album found)").count == 2, "\(listed.stdout)")
            #expect(!listed.stdout.contains("saved "))
            #expect(try Self.albumAssets("Trip", library).count == 5)
            let json = try CLI.run(["import", "--json", "--album", "Trip", card.path] + library)
            #expect(json.jsonLines().count == 6)
            #expect(json.jsonLines().allSatisfy { $0["existing"] as? Bool == true && $0["asset"] is String })
            #expect(try CLI.run(["verify"] + library).status == 0)
        }
    }

    /// The quick check trusts name, size and time, as rsync does: a photo changed in place with its
    /// size and time kept is "already there" — and `--checksum`, which reads and hashes each file,
    /// finds it new.
    @Test(arguments: kinds)
    func checksumFindsAPhotoChangedInPlaceWithItsSizeAndTimeKept(kind: String) throws {
        try CLI.withTemporaryDirectory { dir in
            let card = try Self.card(in: dir)
            let library = Self.library(kind, in: dir)
            #expect(try CLI.run(["import", card.path] + library).status == 0)
            let changed = card.appendingPathComponent("DCIM/100CANON/IMG_0003.JPG")
            var bytes = try Data(contentsOf: changed)
            bytes[6] ^= 0x20  // the first letter of its comment: the same size, still a whole photo
            try bytes.write(to: changed)
            try Self.setTime(of: changed)
            let quick = try CLI.run(["import", card.path] + library)
            #expect(quick.stderr.contains("album: 0 saved, 6 already in the library"), "\(quick.stderr)")
            let predicted = try CLI.run(["import", "--checksum", "--dry-run", card.path] + library)
            #expect(predicted.status == 0, "\(predicted.stderr)")
            #expect(Self.verdicts(predicted).filter { $0.hasPrefix("new ") } == ["new \(changed.path)"])
            #expect(predicted.stderr.contains("1 would be saved, 5 already in the library"))
            let checked = try CLI.run(["import", "--checksum", card.path] + library)
            #expect(checked.status == 0, "\(checked.stderr)")
            #expect(Self.verdicts(checked) == Self.verdicts(predicted))
            #expect(checked.stderr.contains("album: 1 saved, 5 already in the library"))
            #expect(try CLI.run(["verify"] + library).status == 0)
        }
    }

    /// A photo already in the library (imported without an album) is added to the album named on
    /// the next import, without being copied again; the summary still says it was already there.
    @Test func aPhotoAlreadyInTheLibraryIsAddedToTheAlbum() throws {
        try CLI.withTemporaryDirectory { dir in
            let card = try Self.card(in: dir)
            let library = Self.library("catalog", in: dir)
            #expect(try CLI.run(["import", card.path] + library).status == 0)
            let originals = dir.appendingPathComponent("L.albumlibrary/originals")
            let stored = FileManager.default.enumerator(atPath: originals.path)?.allObjects.count
            let into = try CLI.run(["import", "--album", "Trips", card.path] + library)
            #expect(into.status == 0, "\(into.stderr)")
            #expect(into.stderr.contains("album: 0 saved, 6 already in the library"))
            #expect(try Self.albumAssets("Trips", library).count == 5)
            #expect(FileManager.default.enumerator(atPath: originals.path)?.allObjects.count == stored)
            // Half of them in another album first: the rest join them there.
            let half = try CLI.run(["import", "--album", "Best", "--include", "IMG_000[12].JPG", card.path] + library)
            #expect(half.stderr.contains("album: 0 saved, 2 already in the library"), "\(half.stderr)")
            #expect(try Self.albumAssets("Best", library).count == 2)
            #expect(try CLI.run(["import", "--album", "Best", card.path] + library).status == 0)
            #expect(try Self.albumAssets("Best", library).count == 5)
            // A new photo among them, into a new album: it is saved, the others join it there.
            try Fixture.uniqueJPEG("fresh").write(to: card.appendingPathComponent("DCIM/100CANON/IMG_0006.JPG"))
            let fresh = try CLI.run(["import", "--album", "Fresh", card.path] + library)
            #expect(fresh.stderr.contains("album: 1 saved, 6 already in the library"), "\(fresh.stderr)")
            #expect(try Self.albumAssets("Fresh", library).count == 6)
            #expect(try CLI.run(["verify"] + library).status == 0)
        }
    }

    /// `--dry-run` prints, line for line, what the import then prints (the same files, in the
    /// same order, each new or already in the library) and the same counts: on a new card, and on
    /// a card partly imported, with and without --checksum.
    @Test(arguments: kinds)
    func dryRunPredictsTheImportLineForLine(kind: String) throws {
        try CLI.withTemporaryDirectory { dir in
            let card = try Self.card(in: dir)
            let library = Self.library(kind, in: dir)
            func predictThenRun(_ options: [String]) throws {
                let predicted = try CLI.run(
                    ["import", "--dry-run", "--album", "Trip"] + options + [card.path] + library)
                #expect(predicted.status == 0, "\(predicted.stderr)")
                let run = try CLI.run(["import", "--album", "Trip"] + options + [card.path] + library)
                #expect(run.status == 0, "\(run.stderr)")
                #expect(Self.verdicts(predicted) == Self.verdicts(run))
                #expect(!Self.verdicts(run).contains { $0.hasPrefix("?") })
                let counts = { (text: String) in
                    text.split(separator: "\n").last.map {
                        $0.replacingOccurrences(of: "album: dry run, nothing written: ", with: "")
                            .replacingOccurrences(of: "would be saved", with: "saved")
                            .replacingOccurrences(of: "album: ", with: "")
                    }
                }
                #expect(counts(predicted.stderr) == counts(run.stderr))
            }
            let libraryFolder = dir.appendingPathComponent(kind == "catalog" ? "L.albumlibrary" : "Pictures")
            try predictThenRun(["--include", "IMG_000[12].JPG"])  // a new card: nothing is created
            try predictThenRun([])  // two already there, the copy among them
            try predictThenRun(["--checksum"])  // all already there
            let extra = card.appendingPathComponent("DCIM/101CANON/IMG_0100.JPG")
            try (Data(contentsOf: CLI.examples.appendingPathComponent("harbour.jpg")) + Data("new".utf8)).write(
                to: extra)
            try predictThenRun([])  // one new among them
            #expect(FileManager.default.fileExists(atPath: libraryFolder.path))
            let json = try CLI.run(["import", "--dry-run", "--json", "--album", "Trip", card.path] + library)
            #expect(json.jsonLines().count == 7)
            #expect(json.jsonLines().allSatisfy { $0["existing"] as? Bool == true && $0["asset"] is String })
        }
    }

    /// A dry run of a first import creates no library.
    @Test func dryRunOfAFirstImportWritesNothing() throws {
        try CLI.withTemporaryDirectory { dir in
            let card = try Self.card(in: dir)
            for kind in Self.kinds {
                let library = Self.library(kind, in: dir)
                let predicted = try CLI.run(["import", "--dry-run", "--album", "Trip", card.path] + library)
                #expect(predicted.status == 0, "\(predicted.stderr)")
                #expect(Self.verdicts(predicted).filter { $0.hasPrefix("new ") }.count == 5)
                #expect(predicted.stderr.contains("5 would be saved, 1 already in the library, 1 skipped"))
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["card"])
        }
    }

    /// `-q` prints nothing when every file was saved or already there; when one fails, its error
    /// and the summary.
    @Test(arguments: kinds)
    func quietPrintsNothingUnlessSomethingFailed(kind: String) throws {
        try CLI.withTemporaryDirectory { dir in
            let card = try Self.card(in: dir)
            let library = Self.library(kind, in: dir)
            for _ in 0..<2 {
                let run = try CLI.run(["import", "-q", "--album", "Trip", card.path] + library)
                #expect(run.status == 0)
                #expect(run.stdout.isEmpty && run.stderr.isEmpty, "\(run.stdout)\(run.stderr)")
                let save = try CLI.run(["save", "-q", "-r", card.path] + library)
                #expect(save.status == 0)
                #expect(save.stdout.isEmpty && save.stderr.isEmpty, "\(save.stdout)\(save.stderr)")
            }
            let dry = try CLI.run(["import", "-q", "--dry-run", card.path] + library)
            #expect(dry.status == 0)
            #expect(dry.stdout.isEmpty && dry.stderr.isEmpty, "\(dry.stdout)\(dry.stderr)")
            // A damaged photo: its error and the summary, and nothing else.
            try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]).write(to: card.appendingPathComponent("DCIM/BROKEN.JPG"))
            let failed = try CLI.run(["import", "-q", "--album", "Trip", card.path] + library)
            #expect(failed.status == 1)
            #expect(failed.stdout.isEmpty)
            let errors = failed.stderr.split(separator: "\n")
            #expect(errors.count == 2, "\(failed.stderr)")
            #expect(errors.first?.contains("BROKEN.JPG") == true)
            #expect(
                errors.last == "album: 0 saved, 6 already in the library, 1 skipped (not photos or videos), 1 failed")
        }
    }

    /// An import of more files than a save commits at once (128) names each file without its id
    /// and says the album's outcome once: "(album created)" on the first line, never "(album
    /// found)" for the batches after it.
    @Test func theAlbumIsToldOnceAndIdsOnlyWithVerbose() throws {
        try CLI.withTemporaryDirectory { dir in
            let card = dir.appendingPathComponent("DCIM/100CANON")
            try FileManager.default.createDirectory(at: card, withIntermediateDirectories: true)
            let base = try Data(contentsOf: CLI.examples.appendingPathComponent("harbour.jpg"))
            for n in 1...140 {
                let tag = withUnsafeBytes(of: UInt32(n)) { Data($0) }
                let bytes = base.prefix(2) + Data([0xFF, 0xFE, 0x00, 0x06]) + tag + base.dropFirst(2)
                try bytes.write(to: card.appendingPathComponent(String(format: "IMG_%04d.JPG", n)))
            }
            let library = Self.library("catalog", in: dir)
            let first = try CLI.run(["import", "--album", "Big", dir.path] + library)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.lines.count == 140)
            #expect(first.stdout.components(separatedBy: "(album created)").count == 2)
            #expect(!first.stdout.contains("(album found)"), "\(first.stdout)")
            #expect(first.lines.allSatisfy { !$0.contains(" as ") })
            #expect(first.lines.first?.hasPrefix("saved \(card.path)/IMG_0001.JPG in \"Big\" (album created)") == true)
            let again = try CLI.run(["import", "--album", "Big", dir.path] + library)
            #expect(again.stdout.isEmpty)
            #expect(again.stderr.contains("album: 0 saved, 140 already in the library"), "\(again.stderr)")
            let dry = try CLI.run(["import", "--dry-run", "--album", "Big", dir.path] + library)
            #expect(dry.stdout.isEmpty)
            #expect(dry.stderr.contains("0 would be saved, 140 already in the library"), "\(dry.stderr)")
        }
    }
}

/// A catalog whose copies carry the time they were saved (as the previous release kept them): the
/// quick check reads the sources whose time differs and compares them with the SHA-256 the journal
/// records, never copying them again; a photo edited in place (same name and size, other bytes) is
/// still saved.
@Suite(.onThreadsOfTheirOwn) struct ReimportOfPreviousReleaseCopiesTests {
    @Test func copiesWithTheTimeOfTheirSaveAreRecognisedByContentWithoutCopying() throws {
        try CLI.withTemporaryDirectory { dir in
            let card = try ReimportCLITests.card(in: dir)
            let library = ReimportCLITests.library("catalog", in: dir)
            #expect(try CLI.run(["import", "--album", "Card", card.path] + library).status == 0)
            let originals = dir.appendingPathComponent("L.albumlibrary/originals")
            let shards = try FileManager.default.contentsOfDirectory(atPath: originals.path)
            // Every copy gets the time of "its save", as the previous release left it.
            let saveTime = Date(timeIntervalSince1970: 1_750_000_000)
            for shard in shards {
                let folder = originals.appendingPathComponent(shard)
                for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                    try FileManager.default.setAttributes(
                        [.modificationDate: saveTime], ofItemAtPath: folder.appendingPathComponent(name).path)
                }
            }
            func folderTimes() throws -> [Date] {
                try shards.map {
                    try FileManager.default.attributesOfItem(atPath: originals.appendingPathComponent($0).path)[
                        .modificationDate] as! Date
                }
            }
            // The card's renamed copy is found by its bytes once copied (as always): not here.
            try FileManager.default.removeItem(at: card.appendingPathComponent("DCIM/101CANON/COPY_0002.JPG"))
            let before = try folderTimes()
            let dry = try CLI.run(["import", "-v", "-n", "--album", "Card", card.path] + library)
            let run = try CLI.run(["import", "-v", "--album", "Card", card.path] + library)
            #expect(run.status == 0, "\(run.stderr)")
            let verdicts = ReimportCLITests.verdicts(run)
            #expect(verdicts.count == 5 && verdicts.allSatisfy { $0.hasPrefix("already ") }, "\(run.stdout)")
            #expect(ReimportCLITests.verdicts(dry) == ReimportCLITests.verdicts(run), "\(dry.stdout)")
            #expect(try folderTimes() == before, "nothing was copied into the library, not even for a moment")

            // Edited in place, same size and name: saved.
            let edited = card.appendingPathComponent("DCIM/100CANON/IMG_0003.JPG")
            var bytes = try Data(contentsOf: edited)
            bytes[6] ^= 0x20  // the first letter of its comment: the same size, still a whole photo
            try bytes.write(to: edited)
            let again = try CLI.run(["import", "--album", "Card", card.path] + library)
            #expect(
                again.lines.contains { $0.hasPrefix("saved ") && $0.contains("IMG_0003.JPG") }, "\(again.stdout)")
        }
    }
}
