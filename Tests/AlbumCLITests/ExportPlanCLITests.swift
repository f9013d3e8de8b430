import AlbumKitConformance
import AlbumTestSupport
import Foundation
import Testing

/// `export --dry-run` predicts the names an export writes (and what is already there) without
/// writing anything; progress on a terminal counts bytes of what is durable, for import and export.
@Suite(.onThreadsOfTheirOwn) struct ExportPlanCLITests {
    /// `album ARGS` on a pseudo-terminal (script(1)); the text it drew, with carriage returns as
    /// line breaks.
    static func onTerminal(_ arguments: [String], home: URL) throws -> (status: Int32, lines: [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        let command = ([CLI.binary.path] + arguments).map {
            "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
        }.joined(separator: " ")
        process.arguments = ["-qec", command, "/dev/null"]
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": home.path, "COLUMNS": "120", "TERM": "dumb"]
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).map {
            $0.replacingOccurrences(of: "\u{1B}[K", with: "")
        }
        return (process.terminationStatus, lines)
    }

    @Test(arguments: ["catalog", "folders"])
    func aDryRunPredictsTheExportAndWritesNothing(kind: String) throws {
        try CLI.withTemporaryDirectory { dir in
            let card = try CompanionCLITests.card(in: dir)
            let library = CompanionCLITests.library(kind, in: dir)
            #expect(try CLI.run(["import", "--album", "Trip", card.path] + library).status == 0)
            let out = dir.appendingPathComponent("out")
            let plan = try CLI.run(["export", "--dry-run", "Trip", out.path] + library)
            #expect(plan.status == 0, "\(plan.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out.path), "a dry run makes no folder")
            #expect(
                plan.lines.contains("would export IMG_0001.JPG as IMG_0001.JPG (with IMG_0001.CR2, IMG_0001.xmp)"),
                "\(plan.stdout)")
            #expect(plan.stderr.contains("3 would be exported, 0 already there"), "\(plan.stderr)")

            // A folder holding another IMG_0002.JPG and an IMG_0003.AAE of someone else's: the names
            // move on, companions included, and the real export writes exactly what was predicted.
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            try Data("someone else's".utf8).write(to: out.appendingPathComponent("IMG_0002.JPG"))
            try Data("theirs".utf8).write(to: out.appendingPathComponent("IMG_0003.AAE"))
            let predicted = try CLI.run(["export", "-n", "--json", "Trip", out.path] + library).jsonLines()
            #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).count == 2)
            let names = Set(predicted.compactMap { $0["file"] as? String })
            #expect(names == ["IMG_0001.JPG", "IMG_0002 2.JPG", "IMG_0003 2.JPG"], "\(predicted)")
            let real = try CLI.run(["export", "--json", "Trip", out.path] + library)
            let written = ((real.json() as? [String: Any])?["exported"] as? [[String: Any]] ?? []).compactMap {
                $0["file"] as? String
            }
            #expect(Set(written) == names, "\(real.stdout)")
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("IMG_0003 2.AAE").path))
            #expect(try String(contentsOf: out.appendingPathComponent("IMG_0003.AAE"), encoding: .utf8) == "theirs")

            // Now everything is there: the dry run says so.
            let again = try CLI.run(["export", "-n", "Trip", out.path] + library)
            #expect(again.stderr.contains("0 would be exported, 3 already there"), "\(again.stderr)")
        }
    }

    @Test func progressCountsBytesOfWhatIsSaved() throws {
        try CLI.withTemporaryDirectory { dir in
            let card = try CompanionCLITests.card(in: dir)
            let library = CompanionCLITests.library("catalog", in: dir)
            let run = try Self.onTerminal(["import", "--album", "Trip", card.path] + library, home: dir)
            #expect(run.status == 0, "\(run.lines)")
            // "1/3 files, 9.4 KB of 26 KB 36%…": files and bytes, never more files than were saved.
            let progress = run.lines.filter { $0.contains(" files, ") && $0.contains(" of ") }
            #expect(!progress.isEmpty, "\(run.lines)")
            for line in progress {
                let done = Int(line.prefix { $0 != "/" }) ?? -1
                let savedBefore = run.lines.prefix { $0 != line }.filter { $0.hasPrefix("saved ") }.count
                #expect(done >= 1 && done <= 3, "\(line)")
                #expect(done <= savedBefore + 1, "the line runs ahead of what is saved: \(run.lines)")
                #expect(line.contains("B of ") && line.contains("%"), "\(line)")
            }
            let export = try Self.onTerminal(
                ["export", "Trip", dir.appendingPathComponent("out").path] + library, home: dir)
            #expect(export.status == 0, "\(export.lines)")
            #expect(export.lines.contains { $0.hasPrefix("3/3 files, ") }, "\(export.lines)")
        }
    }

    /// `verify` and `repair` draw files and bytes read, counting only what is checked, and end on
    /// the whole: the catalog's photos with their companions (3 photos, a raw and 3 sidecars); a
    /// folder library's photos; the files repair adopts.
    @Test(arguments: ["catalog", "folders"])
    func verifyAndRepairShowProgressInFilesAndBytes(kind: String) throws {
        try CLI.withTemporaryDirectory { dir in
            let card = try CompanionCLITests.card(in: dir)
            let library = CompanionCLITests.library(kind, in: dir)
            #expect(try CLI.run(["import", "--album", "Trip", card.path] + library).status == 0)
            let verify = try Self.onTerminal(["verify"] + library, home: dir)
            #expect(verify.status == 0, "\(verify.lines)")
            let total = kind == "catalog" ? 7 : 3
            let progress = verify.lines.filter { $0.contains(" files, ") && $0.contains(" of ") }
            #expect(progress.last?.hasPrefix("\(total)/\(total) files, ") == true, "\(verify.lines)")
            var last = 0
            for line in progress {
                let done = Int(line.prefix { $0 != "/" }) ?? -1
                #expect(done > last && done <= total, "in order, never past the total: \(line)")
                last = done
                #expect(line.contains("B of ") && line.contains("%"), "\(line)")
            }
            #expect(verify.lines.last?.hasPrefix("ok: 3 assets verified") == true, "\(verify.lines)")
            let quiet = try Self.onTerminal(["verify", "-q"] + library, home: dir)
            #expect(!quiet.lines.contains { $0.contains(" files, ") }, "\(quiet.lines)")
            guard kind == "catalog" else { return }

            // Two photos copied into the library by hand: repair reads and adopts them, and says so.
            let shard = dir.appendingPathComponent("L.albumlibrary/originals/00")
            try FileManager.default.createDirectory(at: shard, withIntermediateDirectories: true)
            for index in 1...2 {
                try Fixture.uniqueJPEG("stray \(index)").write(to: shard.appendingPathComponent("stray\(index).jpg"))
            }
            let repair = try Self.onTerminal(["repair"] + library, home: dir)
            #expect(repair.status == 0, "\(repair.lines)")
            #expect(repair.lines.contains { $0.hasPrefix("2/2 files, ") && $0.contains("B of ") }, "\(repair.lines)")
        }
    }
}
