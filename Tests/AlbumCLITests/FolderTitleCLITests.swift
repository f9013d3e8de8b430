import Foundation
import AlbumTestSupport
import Testing

/// A folder library's album titles on the command line: every command finds an album the way
/// `albums` lists it, and refuses a title two folders carry.
@Suite(.onThreadsOfTheirOwn) struct FolderTitleCLITests {
    @Test func albumInANumberedFolderIsFoundByEveryCommand() throws {
        try CLI.withTemporaryDirectory { dir in
            // A file takes the name Trips, so the album Trips is the folder "Trips 2".
            let root = dir.appendingPathComponent("Pictures")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            let notes = root.appendingPathComponent("Trips")
            try Data("notes\n".utf8).write(to: notes)
            let jpeg = CLI.examples.appendingPathComponent("harbour.jpg").path
            let save = try CLI.run(["save", "--json", "--album", "Trips", "--library", root.path, jpeg])
            #expect(save.status == 0, "\(save.stderr)")
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("Trips 2/harbour.jpg").path))
            let show = try CLI.run(["show", "Trips", "--json", "--library", root.path])
            #expect(show.status == 0, "\(show.stderr)")
            // A folder Trips with a photo: two albums are listed as "Trips", every command refuses.
            try FileManager.default.removeItem(at: notes)
            try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: URL(fileURLWithPath: jpeg), to: notes.appendingPathComponent("mine.jpg"))
            let commands = [
                ["show", "Trips"], ["rename", "Trips", "Holiday"], ["delete", "Trips", "--force"],
                ["save", "--album", "Trips", CLI.examples.appendingPathComponent("garden.png").path],
            ]
            for arguments in commands {
                let run = try CLI.run(arguments + ["--json", "--library", root.path])
                #expect(run.status == 1, "\(arguments): \(run.stdout) \(run.stderr)")
                #expect((run.stdout + run.stderr).contains("ambiguousAlbumTitle"), "\(arguments): \(run.stdout)")
            }
            #expect(visibleNames(root) == ["Trips", "Trips 2"])
            #expect(visibleNames(notes) == ["mine.jpg"])
            // The plain folder gone, rename finds the album again.
            try FileManager.default.removeItem(at: notes)
            let rename = try CLI.run(["rename", "Trips", "Holiday", "--library", root.path])
            #expect(rename.status == 0, "\(rename.stderr)")
            #expect(visibleNames(root.appendingPathComponent("Holiday")) == ["harbour.jpg"])
        }
    }

    private func visibleNames(_ directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { !$0.hasPrefix(".") }
            .sorted()
    }
}
