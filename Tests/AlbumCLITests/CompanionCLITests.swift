import AlbumKitConformance
import AlbumTestSupport
import Foundation
import Testing

/// Sidecars (`.xmp`, `.AAE`) and the raw of a RAW+JPEG pair travel with their photo through
/// import, listing, export, `--move`, deletion and verify, in both library kinds; a sidecar without
/// its photo is reported, never dropped in silence.
@Suite(.onThreadsOfTheirOwn) struct CompanionCLITests {
    /// A card: `IMG_0001.JPG` + `IMG_0001.CR2` + `IMG_0001.xmp`, `IMG_0002.JPG` + `IMG_0002.JPG.xmp`,
    /// `IMG_0003.JPG` + `IMG_0003.AAE`, and `IMG_0009.xmp` without its photo.
    static func card(in dir: URL) throws -> URL {
        let card = dir.appendingPathComponent("card")
        let folder = card.appendingPathComponent("DCIM/100CANON")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for i in 1...3 {
            try Fixture.uniqueJPEG("pair\(i)").write(to: folder.appendingPathComponent("IMG_000\(i).JPG"))
        }
        // Not a raw AlbumKit can read: kept as it is, beside its JPEG.
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(
            to: folder.appendingPathComponent("IMG_0001.CR2"))
        try Data("<x:xmpmeta xmlns:x='adobe:ns:meta/'>5 stars</x:xmpmeta>".utf8).write(
            to: folder.appendingPathComponent("IMG_0001.xmp"))
        try Data("<x:xmpmeta xmlns:x='adobe:ns:meta/'>darktable</x:xmpmeta>".utf8).write(
            to: folder.appendingPathComponent("IMG_0002.JPG.xmp"))
        try Data("<plist>edits</plist>".utf8).write(to: folder.appendingPathComponent("IMG_0003.AAE"))
        try Data("<x:xmpmeta/>".utf8).write(to: folder.appendingPathComponent("IMG_0009.xmp"))
        return card
    }

    static func library(_ kind: String, in dir: URL) -> [String] {
        kind == "catalog"
            ? ["--library", dir.appendingPathComponent("L.albumlibrary").path]
            : ["--folders", "--library", dir.appendingPathComponent("Pictures").path]
    }

    /// The companions `show --json` lists, by photo: `[IMG_0001.JPG: [(raw, IMG_0001.CR2, path)…]]`.
    static func companions(_ show: CLI.Run) -> [String: [(role: String, file: String, path: String)]] {
        var found: [String: [(role: String, file: String, path: String)]] = [:]
        for asset in (show.json() as? [[String: Any]]) ?? [] {
            guard let name = asset["file"] as? String else { continue }
            found[name] = ((asset["companions"] as? [[String: Any]]) ?? []).map {
                ($0["role"] as? String ?? "", $0["file"] as? String ?? "", $0["path"] as? String ?? "")
            }
        }
        return found
    }

    @Test(arguments: ["catalog", "folders"])
    func aCardsSidecarsAndRawsAreKeptWithTheirPhotos(kind: String) throws {
        try CLI.withTemporaryDirectory { dir in
            let card = try Self.card(in: dir)
            let folder = card.appendingPathComponent("DCIM/100CANON")
            let library = Self.library(kind, in: dir)
            let dry = try CLI.run(["import", "--album", "Trip", card.path, "-n"] + library)
            #expect(dry.lines.count == 3, "\(dry.stdout)")
            #expect(dry.lines.contains { $0.hasSuffix("(with IMG_0001.CR2, IMG_0001.xmp)") }, "\(dry.stdout)")

            let run = try CLI.run(["import", "-v", "--album", "Trip", card.path] + library)
            #expect(run.status == 0, "\(run.stderr)")
            // The dry run said the same, line for line (but for the verb and the id -v adds).
            #expect(
                run.lines.map { $0.components(separatedBy: " as ")[0] }
                    == dry.lines.map { "saved " + $0.dropFirst("would save ".count).components(separatedBy: " (")[0] },
                "\(run.stdout)\n\(dry.stdout)")
            #expect(run.lines.count == 3, "three photos, not seven files: \(run.stdout)")
            #expect(run.lines[0].contains("(with IMG_0001.CR2, IMG_0001.xmp)"), "\(run.stdout)")
            #expect(run.lines[1].contains("(with IMG_0002.JPG.xmp)"), "\(run.stdout)")
            #expect(run.lines[2].contains("(with IMG_0003.AAE)"), "\(run.stdout)")
            #expect(run.stderr.contains("IMG_0009.xmp is a sidecar without its photo"), "\(run.stderr)")
            #expect(run.stderr.contains("3 saved, 1 sidecar without its photo"), "\(run.stderr)")

            let show = try CLI.run(["show", "Trip", "--json"] + library)
            #expect(
                ((show.json() as? [[String: Any]]) ?? []).count == 3, "the raw is no photo of its own: \(show.stdout)")
            let kept = Self.companions(show)
            #expect(kept["IMG_0001.JPG"]?.map(\.role) == ["raw", "sidecar"], "\(show.stdout)")
            #expect(kept["IMG_0001.JPG"]?.map(\.file) == ["IMG_0001.CR2", "IMG_0001.xmp"], "\(show.stdout)")
            #expect(kept["IMG_0002.JPG"]?.map(\.file) == ["IMG_0002.JPG.xmp"], "\(show.stdout)")
            #expect(kept["IMG_0003.JPG"]?.map(\.file) == ["IMG_0003.AAE"], "\(show.stdout)")
            // Byte for byte where the library keeps them.
            for companions in kept.values {
                for companion in companions {
                    #expect(
                        CLI.sha256(URL(fileURLWithPath: companion.path))
                            == CLI.sha256(folder.appendingPathComponent(companion.file)), "\(companion)")
                }
            }
            let verify = try CLI.run(["verify"] + library)
            #expect(verify.status == 0, "companions are no stray files: \(verify.stdout)\(verify.stderr)")

            // Export brings them back beside the photo, under its name; again, nothing is written twice.
            let out = dir.appendingPathComponent("out")
            let export = try CLI.run(["export", "Trip", out.path] + library)
            #expect(export.status == 0, "\(export.stderr)")
            for name in ["IMG_0001.JPG", "IMG_0001.CR2", "IMG_0001.xmp", "IMG_0002.JPG.xmp", "IMG_0003.AAE"] {
                #expect(
                    CLI.sha256(out.appendingPathComponent(name)) == CLI.sha256(folder.appendingPathComponent(name)),
                    "\(name)")
            }
            let again = try CLI.run(["export", "Trip", out.path] + library)
            #expect(again.status == 0, "\(again.stderr)")
            // 3 photos, the raw and 3 sidecars, once each.
            // (And the export's hidden record of what it wrote.)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: out.path).filter { !$0.hasPrefix(".") }.count == 7)

            // Imported again: already there, and the card's raw is still no photo of its own.
            let reimport = try CLI.run(["import", "--album", "Trip", card.path] + library)
            #expect(reimport.stderr.contains("0 saved, 3 already in the library"), "\(reimport.stderr)")
        }
    }

    @Test func separateRawSavesTheRawAsItsOwnFile() throws {
        try CLI.withTemporaryDirectory { dir in
            let card = try Self.card(in: dir)
            let library = Self.library("folders", in: dir)
            let run = try CLI.run(["import", "--separate-raw", "-v", card.path] + library)
            // The JPEG is saved alone; the raw is a photo of its own (with the stem's sidecar, as
            // Lightroom writes it for the raw) — here one AlbumKit cannot read: skipped, and said so.
            #expect(
                run.lines.contains {
                    $0.hasPrefix("saved ") && $0.contains("IMG_0001.JPG as ") && !$0.contains("(with")
                }, "\(run.stdout)")
            #expect(run.stderr.contains("skipped") && run.stderr.contains("IMG_0001.CR2"), "\(run.stderr)")
        }
    }

    @Test(arguments: ["catalog", "folders"])
    func moveTakesTheCompanionsOffTheCardOnceKept(kind: String) throws {
        try CLI.withTemporaryDirectory { dir in
            let card = try Self.card(in: dir)
            let folder = card.appendingPathComponent("DCIM/100CANON")
            let library = Self.library(kind, in: dir)
            let run = try CLI.run(["import", "--move", "--album", "Trip", card.path] + library)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.lines.filter { $0.hasPrefix("moved ") }.count == 3, "\(run.stdout)")
            // Only the sidecar without its photo stays.
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["IMG_0009.xmp"])
            let kept = Self.companions(try CLI.run(["show", "Trip", "--json"] + library))
            #expect(kept.values.map(\.count).reduce(0, +) == 4, "\(kept)")
            for companion in kept.values.joined() {
                #expect(FileManager.default.fileExists(atPath: companion.path), "\(companion)")
            }
        }
    }

    @Test func aCatalogDeletesRestoresPurgesAndVerifiesThemWithTheirPhoto() throws {
        try CLI.withTemporaryDirectory { dir in
            let card = try Self.card(in: dir)
            let library = Self.library("catalog", in: dir)
            _ = try CLI.run(["import", "--album", "Trip", card.path] + library)
            let show = try CLI.run(["show", "Trip", "--json"] + library)
            let assets = (show.json() as? [[String: Any]]) ?? []
            let first = try #require(assets.first { $0["file"] as? String == "IMG_0001.JPG" })
            let id = try #require(first["id"] as? String)
            let files = (Self.companions(show)["IMG_0001.JPG"] ?? []).map(\.path)
            #expect(files.count == 2)

            // A damaged sidecar is named by verify.
            let xmp = try #require(files.last)
            let original = try Data(contentsOf: URL(fileURLWithPath: xmp))
            try Data("tampered".utf8).write(to: URL(fileURLWithPath: xmp))
            let verify = try CLI.run(["verify"] + library)
            #expect(verify.status != 0)
            #expect((verify.stdout + verify.stderr).contains("IMG_0001.xmp"), "\(verify.stdout)\(verify.stderr)")
            try original.write(to: URL(fileURLWithPath: xmp))

            // Deleted: kept (recently deleted), restored with them; purged: they go too.
            #expect(try CLI.run(["delete-asset", id] + library).status == 0)
            for file in files { #expect(FileManager.default.fileExists(atPath: file)) }
            #expect(try CLI.run(["restore", id] + library).status == 0)
            #expect(Self.companions(try CLI.run(["show", "Trip", "--json"] + library))["IMG_0001.JPG"]?.count == 2)
            #expect(try CLI.run(["delete-asset", id] + library).status == 0)
            let purge = try CLI.run(["purge", id] + library)
            #expect(purge.status == 0, "\(purge.stderr)")
            for file in files { #expect(!FileManager.default.fileExists(atPath: file), "\(file)") }
            let after = try CLI.run(["verify"] + library)
            #expect(after.status == 0, "\(after.stdout)\(after.stderr)")
        }
    }
}
