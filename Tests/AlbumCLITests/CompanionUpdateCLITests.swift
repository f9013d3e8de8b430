import Foundation
import AlbumTestSupport
import Testing

/// A photo already in the library gets the sidecars it lacks, and the ones edited since it was
/// saved, when its card is imported again: predicted by the dry run, reported line for line and in
/// the summary, kept across a rebuild of the catalog's index, exported; the earlier version of a
/// folder library's sidecar goes to the desktop Trash.
@Suite(.onThreadsOfTheirOwn) struct CompanionUpdateCLITests {
    @Test(arguments: ["catalog", "folders"])
    func reimportUpdatesEditedAndNewSidecars(kind: String) throws {
        try CLI.withTemporaryDirectory { dir in
            let card = try CompanionCLITests.card(in: dir)
            let folder = card.appendingPathComponent("DCIM/100CANON")
            let library = CompanionCLITests.library(kind, in: dir)
            let env = ["XDG_DATA_HOME": dir.appendingPathComponent("data").path]
            func album(_ arguments: [String]) throws -> CLI.Run {
                try CLI.run(arguments + library, environment: env)
            }
            let first = try album(["import", "--album", "Trip", card.path])
            #expect(first.status == 0, "\(first.stderr)")
            let before = CompanionCLITests.companions(try album(["show", "Trip", "--json"]))
            let oldXMP = try #require(before["IMG_0001.JPG"]?.first { $0.file == "IMG_0001.xmp" })

            // Lightroom rewrites one sidecar (other bytes, a later time); the photo gets a new one.
            let edited = folder.appendingPathComponent("IMG_0001.xmp")
            try Data("<x:xmpmeta xmlns:x='adobe:ns:meta/'>4 stars, cropped</x:xmpmeta>".utf8).write(to: edited)
            try FileManager.default.setAttributes(
                [.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: edited.path)
            let added = folder.appendingPathComponent("IMG_0003.xmp")
            try Data("<x:xmpmeta xmlns:x='adobe:ns:meta/'>keyword</x:xmpmeta>".utf8).write(to: added)

            // -v: the photo with nothing new is listed too.
            let dry = try album(["import", "-v", "--album", "Trip", card.path, "-n"])
            #expect(dry.status == 0, "\(dry.stderr)")
            #expect(
                dry.lines.contains { $0.contains("IMG_0001.JPG") && $0.hasSuffix("(would update: IMG_0001.xmp)") },
                "\(dry.stdout)")
            #expect(
                dry.lines.contains { $0.contains("IMG_0003.JPG") && $0.hasSuffix("(would update: IMG_0003.xmp)") },
                "\(dry.stdout)")
            #expect(
                dry.lines.contains { $0.contains("IMG_0002.JPG") && !$0.contains("update") }, "\(dry.stdout)")
            #expect(dry.stderr.contains("0 would be saved, 3 already in the library (2 with sidecars updated)"))

            let run = try album(["import", "-v", "--album", "Trip", card.path])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(
                run.lines.map { $0.components(separatedBy: " as ")[0] }
                    == dry.lines.map { $0.components(separatedBy: " as ")[0] }, "\(run.stdout)\n\(dry.stdout)")
            #expect(
                run.lines.contains { $0.contains("IMG_0001.JPG") && $0.hasSuffix("(updated: IMG_0001.xmp)") },
                "\(run.stdout)")
            #expect(
                run.lines.contains { $0.contains("IMG_0003.JPG") && $0.hasSuffix("(updated: IMG_0003.xmp)") },
                "\(run.stdout)")
            #expect(run.stderr.contains("0 saved, 3 already in the library (2 with sidecars updated)"), "\(run.stderr)")

            let kept = CompanionCLITests.companions(try album(["show", "Trip", "--json"]))
            #expect(kept["IMG_0001.JPG"]?.map(\.file).sorted() == ["IMG_0001.CR2", "IMG_0001.xmp"], "\(kept)")
            #expect(kept["IMG_0003.JPG"]?.map(\.file).sorted() == ["IMG_0003.AAE", "IMG_0003.xmp"], "\(kept)")
            for companion in kept.values.joined() {
                #expect(
                    CLI.sha256(URL(fileURLWithPath: companion.path))
                        == CLI.sha256(folder.appendingPathComponent(companion.file)), "\(companion)")
            }
            if kind == "catalog" {
                // The earlier file is gone from the library (no stray file left).
                #expect(!FileManager.default.fileExists(atPath: oldXMP.path), "\(oldXMP)")
            } else {
                // The earlier version is in the Trash, byte for byte.
                let trashed = dir.appendingPathComponent("data/Trash/files/IMG_0001.xmp")
                #expect(
                    (try? String(contentsOf: trashed, encoding: .utf8))?.contains("5 stars") == true,
                    "the earlier sidecar is in the Trash")
            }
            let verify = try album(["verify"])
            #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")

            // JSON says so; a third import finds nothing to update.
            let again = try album(["import", "--json", "--album", "Trip", card.path])
            for line in again.jsonLines() where line["asset"] != nil {
                #expect(line["existing"] as? Bool == true, "\(line)")
                #expect(line["companionsUpdated"] == nil, "\(line)")
            }
            #expect(again.stderr.contains("0 saved, 3 already in the library") && !again.stderr.contains("updated"))

            // Exported beside the photo: the new versions.
            let out = dir.appendingPathComponent("out")
            let export = try album(["export", "Trip", out.path])
            #expect(export.status == 0, "\(export.stderr)")
            for name in ["IMG_0001.xmp", "IMG_0003.xmp", "IMG_0003.AAE"] {
                #expect(
                    CLI.sha256(out.appendingPathComponent(name)) == CLI.sha256(folder.appendingPathComponent(name)),
                    "\(name)")
            }
        }
    }

    /// The update is in the journal: an index rebuilt from it lists the new sidecar, and `--checksum`
    /// finds a sidecar rewritten with other bytes but the same size and time.
    @Test func theCatalogsUpdateSurvivesARebuildAndChecksumFindsSameSizeEdits() throws {
        try CLI.withTemporaryDirectory { dir in
            let card = try CompanionCLITests.card(in: dir)
            let folder = card.appendingPathComponent("DCIM/100CANON")
            let library = CompanionCLITests.library("catalog", in: dir)
            #expect(try CLI.run(["import", "--album", "Trip", card.path] + library).status == 0)
            // Same size, same time, other bytes: the quick check cannot tell; --checksum can.
            let sidecar = folder.appendingPathComponent("IMG_0003.AAE")
            let reference = dir.appendingPathComponent("reference")
            try shell("/bin/cp", "-p", sidecar.path, reference.path)
            try Data("<plist>EDITS</plist>".utf8).write(to: sidecar)
            // The time to the nanosecond (Foundation's dates round it).
            try shell("/usr/bin/touch", "-r", reference.path, sidecar.path)
            let quick = try CLI.run(["import", "--album", "Trip", card.path] + library)
            #expect(!quick.stdout.contains("updated"), "\(quick.stdout)")
            let checksum = try CLI.run(["import", "--checksum", "--json", "--album", "Trip", card.path] + library)
            #expect(checksum.status == 0, "\(checksum.stderr)")
            let updated = checksum.jsonLines().compactMap { $0["companionsUpdated"] as? [String] }
            #expect(updated == [["IMG_0003.AAE"]], "\(checksum.stdout)")

            let catalog = dir.appendingPathComponent("L.albumlibrary/catalog.sqlite")
            try FileManager.default.removeItem(at: catalog)
            let kept = CompanionCLITests.companions(try CLI.run(["show", "Trip", "--json"] + library))
            let aae = try #require(kept["IMG_0003.JPG"]?.first { $0.file == "IMG_0003.AAE" })
            #expect(CLI.sha256(URL(fileURLWithPath: aae.path)) == CLI.sha256(sidecar))
            let verify = try CLI.run(["verify"] + library)
            #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        }
    }

    private func shell(_ arguments: String...) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(arguments)")
    }
}
