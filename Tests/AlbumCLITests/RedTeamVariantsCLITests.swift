import AlbumKitConformance
import AlbumTestSupport
import Foundation
import Testing

/// Variants of the attacks on a library that the first round did not list, run through the real
/// `album`: each test here failed before its fix.
@Suite(.onThreadsOfTheirOwn) struct RedTeamVariantsCLITests {
    static func photo(_ tag: String) throws -> Data {
        Fixture.uniqueJPEG(tag)
    }

    /// A library shared with its group (`chmod 2770`): a member of the group may rename entries in
    /// it. A save makes a new shard folder and gives it the group's access; a member who puts a link
    /// to the owner's private file in the new folder's place before that (the saver paused there)
    /// must not get the owner's file opened to the group (before: `chmod` by name followed the link
    /// and made it 0770).
    @Test func aNewFolderSwappedForALinkNeverWidensWhatTheLinkLeadsTo() throws {
        try CLI.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Shared.albumlibrary")
            let library = ["--library", url.path]
            let first = dir.appendingPathComponent("IMG_1.JPG")
            let second = dir.appendingPathComponent("IMG_2.JPG")
            try Self.photo("first").write(to: first)
            try Self.photo("second").write(to: second)
            // Shards follow the clock (16 s each): the second save, 100 s later, makes a new one.
            let run = try CLI.run(["save", first.path] + library, environment: ["ALBUMKIT_NOW": "1700000000"])
            #expect(run.status == 0, "\(run.stderr)")
            try FileManager.default.setAttributes([.posixPermissions: 0o2770], ofItemAtPath: url.path)
            let originals = url.appendingPathComponent("originals")
            let before = Set(try FileManager.default.contentsOfDirectory(atPath: originals.path))
            let victim = dir.appendingPathComponent("private.txt")
            try Data("the owner's".utf8).write(to: victim)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: victim.path)

            let marker = dir.appendingPathComponent("pause").path
            let process = try CLI.start(
                ["save", second.path] + library,
                environment: [
                    "ALBUMKIT_NOW": "1700000100", "ALBUMKIT_PAUSE": "folder-made", "ALBUMKIT_PAUSE_MARKER": marker,
                ])
            let deadline = Date().addingTimeInterval(60)
            while !FileManager.default.fileExists(atPath: marker), Date() < deadline { usleep(20_000) }
            let made = Set(try FileManager.default.contentsOfDirectory(atPath: originals.path)).subtracting(before)
            #expect(made.count == 1, "\(made)")
            if let name = made.first {
                let folder = originals.appendingPathComponent(name)
                try FileManager.default.removeItem(at: folder)
                try FileManager.default.createSymbolicLink(atPath: folder.path, withDestinationPath: victim.path)
            }
            try? FileManager.default.removeItem(atPath: marker)
            _ = (process.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let mode = try FileManager.default.attributesOfItem(atPath: victim.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
    }

    /// `album import --move` of the catalog library itself (the library mistaken for a card, or
    /// reached through a link): left out whole as a catalog met inside a walked folder is (before:
    /// walked, its own owner files tried as photos, "no such file" twice and exit 1).
    @Test func importingTheLibraryIntoItselfLeavesItOut() throws {
        try CLI.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Photos.albumlibrary")
            let source = dir.appendingPathComponent("IMG_1.JPG")
            try Self.photo("self").write(to: source)
            #expect(try CLI.run(["save", "--library", url.path, source.path]).status == 0)
            let link = dir.appendingPathComponent("link")
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: url.path)
            for named in [url.path, link.path] {
                let run = try CLI.run(["import", "--move", named, "--library", url.path])
                #expect(run.stderr.contains("left out") && run.stderr.contains("catalog library"), "\(run.stderr)")
                #expect(!run.stderr.contains("no such file"), "\(run.stderr)")
            }
            #expect(try CLI.run(["verify", "--library", url.path]).status == 0)
        }
    }

    /// `owners/` a link out of the library: a save writes no owner file or publishing list through
    /// it (before: both were made in the folder the link led to, then the save failed saying
    /// "owners does not exist (was the library moved…)"), and nothing there is removed.
    @Test func aSaveNeverWritesItsOwnerFilesThroughALinkedOwnersFolder() throws {
        try CLI.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Photos.albumlibrary")
            let first = dir.appendingPathComponent("IMG_1.JPG")
            let second = dir.appendingPathComponent("IMG_2.JPG")
            try Self.photo("first").write(to: first)
            try Self.photo("second").write(to: second)
            #expect(try CLI.run(["save", "--library", url.path, first.path]).status == 0)
            let outside = dir.appendingPathComponent("outside")
            try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
            try Data("12345 0".utf8).write(to: outside.appendingPathComponent("p99999-0123456789abcdef"))
            try FileManager.default.removeItem(at: url.appendingPathComponent("owners"))
            try FileManager.default.createSymbolicLink(
                atPath: url.appendingPathComponent("owners").path, withDestinationPath: outside.path)
            let run = try CLI.run(["save", "--library", url.path, second.path])
            #expect(run.status == 1)
            #expect(run.stderr.contains(url.path + "/owners"), "\(run.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path) == ["p99999-0123456789abcdef"])
        }
    }
}
