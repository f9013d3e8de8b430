import AlbumKitConformance
import AlbumTestSupport
import Foundation
import Testing

/// Who may read a library: private by default (folders 0700, files 0600 in a catalog), a copy never
/// readable by more people than its source, exports keeping the library copy's mode, a catalog
/// shared with its group on purpose through its folder's own mode; and what exports read is checked.
@Suite(.onThreadsOfTheirOwn) struct PrivacyCLITests {
    static func mode(_ url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions]) as? Int) ?? -1
    }

    static func photo(_ tag: String, mode: Int, in dir: URL) throws -> URL {
        let url = dir.appendingPathComponent("\(tag).jpg")
        try Fixture.uniqueJPEG(tag).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
        return url
    }

    /// Every entry under `root` whose mode gives "others" (or, without `group`, the group) anything.
    static func widerThanPrivate(under root: URL, group: Bool = false) -> [String] {
        var found: [String] = []
        let mask = group ? 0o007 : 0o077
        if mode(root) & mask != 0 { found.append("\(root.lastPathComponent) \(String(mode(root), radix: 8))") }
        let all = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let url = all?.nextObject() as? URL {
            guard mode(url) & mask != 0 else { continue }
            found.append("\(url.path.dropFirst(root.path.count)) \(String(mode(url), radix: 8))")
        }
        return found
    }

    @Test func aCatalogIsPrivateAndExportsKeepTheCopysMode() throws {
        try CLI.withTemporaryDirectory { dir in
            let catalog = dir.appendingPathComponent("L.albumlibrary")
            let library = ["--library", catalog.path]
            let open = try Self.photo("open", mode: 0o644, in: dir)
            let secret = try Self.photo("secret", mode: 0o600, in: dir)
            #expect(try CLI.run(["save", "--album", "Trips", open.path, secret.path] + library).status == 0)
            #expect(try CLI.run(["verify"] + library).status == 0)
            #expect(Self.widerThanPrivate(under: catalog).isEmpty, "\(Self.widerThanPrivate(under: catalog))")
            let out = dir.appendingPathComponent("out")
            #expect(try CLI.run(["export", "Trips", out.path] + library).status == 0)
            for name in ["open.jpg", "secret.jpg"] {
                #expect(Self.mode(out.appendingPathComponent(name)) == 0o600, "\(name)")
            }
        }
    }

    @Test func aFolderLibraryCopyIsNeverWiderThanItsSource() throws {
        try CLI.withTemporaryDirectory { dir in
            let pictures = dir.appendingPathComponent("Pictures")
            try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: 0o750], ofItemAtPath: pictures.path)
            let library = ["--folders", "--library", pictures.path]
            let open = try Self.photo("open", mode: 0o644, in: dir)
            let secret = try Self.photo("secret", mode: 0o600, in: dir)
            #expect(try CLI.run(["save", "--album", "Trips", open.path, secret.path] + library).status == 0)
            #expect(Self.mode(pictures.appendingPathComponent("Trips/open.jpg")) == 0o644)
            #expect(Self.mode(pictures.appendingPathComponent("Trips/secret.jpg")) == 0o600)
            // A new album folder is as open as the folder it is made in.
            #expect(Self.mode(pictures.appendingPathComponent("Trips")) == 0o750)
        }
    }

    /// Shared with the group on purpose (`chmod 770` of the library folder): new copies give the
    /// group what their source gave it, never "others".
    @Test func aCatalogSharedWithItsGroupGivesTheGroupAccess() throws {
        try CLI.withTemporaryDirectory { dir in
            let catalog = dir.appendingPathComponent("L.albumlibrary")
            let library = ["--library", catalog.path]
            #expect(try CLI.run(["create", "Trips"] + library).status == 0)
            try FileManager.default.setAttributes([.posixPermissions: 0o770], ofItemAtPath: catalog.path)
            let open = try Self.photo("open", mode: 0o664, in: dir)
            let run = try CLI.run(["save", "--json", "--album", "Trips", open.path] + library)
            let id = try #require(run.jsonLines().first?["asset"] as? String, "\(run.stderr)")
            let show = try CLI.run(["show", "Trips", "--json"] + library)
            let assets = (show.json() as? [[String: Any]]) ?? []
            let path = try #require(assets.first { $0["id"] as? String == id }?["path"] as? String, "\(show.stdout)")
            #expect(Self.mode(URL(fileURLWithPath: path)) == 0o660)
            #expect(Self.widerThanPrivate(under: catalog, group: true).isEmpty)
        }
    }

    /// A damaged original is not exported ("exported 1 of 1" before): the export fails it.
    @Test func anExportFailsADamagedOriginal() throws {
        try CLI.withTemporaryDirectory { dir in
            let catalog = dir.appendingPathComponent("L.albumlibrary")
            let library = ["--library", catalog.path]
            let photo = try Self.photo("damaged", mode: 0o644, in: dir)
            let run = try CLI.run(["save", "--json", "--album", "Trips", photo.path] + library)
            let id = try #require(run.jsonLines().first?["asset"] as? String, "\(run.stderr)")
            let show = try CLI.run(["show", "Trips", "--json"] + library)
            let assets = (show.json() as? [[String: Any]]) ?? []
            let path = try #require(assets.first { $0["id"] as? String == id }?["path"] as? String)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seek(toOffset: 200)
            handle.write(Data([0xDE, 0xAD]))
            try handle.close()
            let out = dir.appendingPathComponent("out")
            let export = try CLI.run(["export", "Trips", out.path] + library)
            #expect(export.status != 0, "\(export.stdout)\n\(export.stderr)")
            #expect(export.stderr.contains("damaged"), "\(export.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("damaged.jpg").path))
        }
    }

    /// Two exports of one album into one folder at the same time: each photo once.
    @Test func twoExportsAtOnceMakeNoDuplicates() throws {
        try CLI.withTemporaryDirectory { dir in
            let library = ["--library", dir.appendingPathComponent("L.albumlibrary").path]
            let photos = try (1...30).map { try Self.photo("p\($0)", mode: 0o644, in: dir) }
            #expect(try CLI.run(["save", "--album", "Trips"] + photos.map(\.path) + library).status == 0)
            for trial in 1...3 {
                let out = dir.appendingPathComponent("out\(trial)")
                let runs = try (1...2).map { _ in try CLI.start(["export", "Trips", out.path] + library) }
                for run in runs {
                    _ = (run.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile()
                    _ = (run.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile()
                    run.waitUntilExit()
                    #expect(run.terminationStatus == 0)
                }
                let names = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { !$0.hasPrefix(".") }
                #expect(names.count == 30, "trial \(trial): \(names.sorted())")
            }
        }
    }
}
