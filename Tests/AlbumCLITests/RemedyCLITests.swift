import AlbumKitConformance
import AlbumTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The remedies `verify` gives are true: saving the photo again restores a damaged original (it
/// used to answer "already in the library"), and `verify` names an original that is not a regular
/// file under `originals/` (a symbolic link out of the library, a FIFO, a folder).
@Suite(.onThreadsOfTheirOwn) struct RemedyCLITests {
    /// A catalog holding `IMG_1.JPG`; returns the library arguments, the source and the copy's path.
    static func saved(in dir: URL) throws -> ([String], URL, URL) {
        let library = ["--library", dir.appendingPathComponent("L.albumlibrary").path]
        let source = dir.appendingPathComponent("IMG_1.JPG")
        try Fixture.uniqueJPEG("remedy").write(to: source)
        let run = try CLI.run(["save", "--json", "--album", "Trips", source.path] + library)
        let id = try #require(run.jsonLines().first?["asset"] as? String, "\(run.stderr)")
        let show = try CLI.run(["show", "Trips", "--json"] + library)
        let assets = (show.json() as? [[String: Any]]) ?? []
        let path = try #require(assets.first { $0["id"] as? String == id }?["path"] as? String, "\(show.stdout)")
        return (library, source, URL(fileURLWithPath: path))
    }

    static func damage(_ url: URL, keepingTime: Bool) throws {
        let time = try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date
        let handle = try FileHandle(forWritingTo: url)
        try handle.seek(toOffset: 300)
        handle.write(Data([0x00, 0x11, 0x22, 0x33]))
        try handle.close()
        if keepingTime, let time {
            try FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: url.path)
        }
    }

    @Test(arguments: [false, true])
    func savingAgainRestoresADamagedOriginal(keepingTime: Bool) throws {
        try CLI.withTemporaryDirectory { dir in
            let (library, source, copy) = try Self.saved(in: dir)
            try Self.damage(copy, keepingTime: keepingTime)
            let verify = try CLI.run(["verify"] + library)
            #expect(verify.status != 0)
            #expect(verify.stdout.contains("save the photo again") || verify.stderr.contains("save the photo again"))
            let again = try CLI.run(["save", "--album", "Trips", source.path] + library)
            #expect(again.stdout.contains("restored"), "\(again.stdout)\n\(again.stderr)")
            #expect(CLI.sha256(copy) == CLI.sha256(source))
            #expect(try CLI.run(["verify"] + library).status == 0)
            // With --checksum too.
            try Self.damage(copy, keepingTime: keepingTime)
            let checked = try CLI.run(["save", "--checksum", "--album", "Trips", source.path] + library)
            #expect(checked.stdout.contains("restored"), "\(checked.stdout)\n\(checked.stderr)")
            #expect(try CLI.run(["verify"] + library).status == 0)
        }
    }

    @Test(arguments: ["link", "fifo", "folder"])
    func verifyNamesAnOriginalThatIsNotAFileInTheLibrary(kind: String) throws {
        try CLI.withTemporaryDirectory { dir in
            let (library, source, copy) = try Self.saved(in: dir)
            try FileManager.default.removeItem(at: copy)
            switch kind {
            case "link": try FileManager.default.createSymbolicLink(at: copy, withDestinationURL: source)
            case "fifo": #expect(mkfifo(copy.path, 0o600) == 0)
            default: try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: false)
            }
            let verify = try CLI.run(["verify"] + library)
            #expect(verify.status != 0, "\(verify.stdout)")
            let text = verify.stdout + verify.stderr
            #expect(text.contains(copy.lastPathComponent), "\(text)")
            #expect(
                text.contains("symbolic link") || text.contains("not a regular file") || text.contains("is a folder"),
                "\(text)")
        }
    }
}
