import AlbumKitConformance
import Foundation
import Testing

@testable import AlbumKitCatalog
@testable import AlbumKitCore

/// A library whose files someone else wrote (received, restored from an untrusted copy, or planted
/// in): its journal records, publishing lists and folders are checked before they are believed,
/// and nothing outside the library is ever removed, overwritten or copied out. Each test forges
/// what an attacker would (records with valid checksums, appended as another process would) and
/// then does what the owner ordinarily does.
@Suite struct CatalogHostileLibraryTests {
    struct Scene {
        let library: URL
        /// A folder outside the library, with `victim.txt` ("private") and `secret.jpg` (a photo).
        let outside: URL
        let saved: SavedAsset

        var victim: URL { outside.appendingPathComponent("victim.txt") }
        var secret: URL { outside.appendingPathComponent("secret.jpg") }
    }

    static let secretBytes = Fixture.uniqueJPEG("secret")

    /// A library with one photo in "Trips", and the outside folder beside it.
    func scene(_ dir: URL) async throws -> Scene {
        let url = dir.appendingPathComponent("Hostile.albumlibrary")
        let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
        let saved = try await library.album(titled: "Trips").save(
            .data(Fixture.uniqueJPEG("own"), filename: "IMG_1.JPG"))
        await Blocking.acknowledgedWorkFinished()
        let outside = dir.appendingPathComponent("victim")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        Fixture.write(Data("private".utf8), named: "victim.txt", in: outside)
        Fixture.write(Self.secretBytes, named: "secret.jpg", in: outside)
        return Scene(library: url, outside: outside, saved: saved)
    }

    /// Appends `changes` to the library's journal with valid checksums, as another process would.
    func forge(_ scene: Scene, _ changes: [CatalogChange]) throws {
        try LibraryJournal(libraryRoot: scene.library.path).append(changes)
    }

    /// A save record of `path`, with the size and SHA-256 of `bytes`.
    func forgedSave(_ id: String, path: String, bytes: Data, companions: [CatalogCompanion] = []) -> CatalogChange {
        .save(
            .init(
                id: id, path: path, originalName: "IMG_9.JPG", byteSize: Int64(bytes.count),
                sha256: bytes.withUnsafeBytes { SHA256Hasher.hash($0) }, kind: "photo", format: "jpeg",
                addedAt: 1_700_000_000,
                metadata: nil, companions: companions))
    }

    /// Makes `originals/zz` a link to the outside folder.
    func linkShard(_ scene: Scene, named name: String = "zz") throws {
        try FileManager.default.createDirectory(
            at: scene.library.appendingPathComponent("originals"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: scene.library.appendingPathComponent("originals/\(name)").path,
            withDestinationPath: scene.outside.path)
    }

    /// Opens the library as a command would, lists its albums, and waits for what follows a command.
    @discardableResult
    func openAndList(_ scene: Scene) async throws -> PhotoLibrary {
        let library = PhotoLibrary(backend: try CatalogBackend.open(at: scene.library))
        _ = try await library.albums()
        await Blocking.acknowledgedWorkFinished()
        return library
    }

    func expectOutsideIntact(_ scene: Scene, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            (try? String(contentsOf: scene.victim, encoding: .utf8)) == "private", sourceLocation: sourceLocation)
        #expect((try? Data(contentsOf: scene.secret)) == Self.secretBytes, sourceLocation: sourceLocation)
    }

    // MARK: Records naming files outside

    @Test(arguments: [
        "../victim/victim.txt", "originals/../../victim/victim.txt", "originals/ab/../../../victim/victim.txt",
    ])
    func aForgedSaveAndPurgeNamingAFileOutsideRemovesNothing(path: String) async throws {
        try await Fixture.withTemporaryDirectory { (dir: URL) async throws in
            let scene = try await scene(dir)
            let id = RandomID.make()
            try forge(scene, [forgedSave(id, path: path, bytes: Data("private".utf8))])
            try forge(scene, [.deleteAssets([id], at: 1_700_000_001), .purgeAssets([id])])
            let library = try await openAndList(scene)
            expectOutsideIntact(scene)
            // The owner's photo is untouched, and the record is reported with what it names.
            #expect(try await library.assets(inAlbumTitled: "Trips").map(\.id) == [scene.saved.assetID])
            let problems = try await library.verify().problems
            #expect(problems.contains { $0.contains(path) && $0.contains("not a file of the library") }, "\(problems)")
        }
    }

    @Test func aForgedSaveThroughALinkedFolderRemovesNothing() async throws {
        try await Fixture.withTemporaryDirectory { (dir: URL) async throws in
            let scene = try await scene(dir)
            try linkShard(scene)
            let id = RandomID.make()
            try forge(
                scene,
                [
                    forgedSave(id, path: "originals/zz/victim.txt", bytes: Data("private".utf8)),
                    .deleteAssets([id], at: 1_700_000_001), .purgeAssets([id]),
                ])
            let library = try await openAndList(scene)
            expectOutsideIntact(scene)
            #expect(try await library.assets(inAlbumTitled: "Trips").map(\.id) == [scene.saved.assetID])
        }
    }

    @Test func forgedCompanionPathsRemoveNothing() async throws {
        try await Fixture.withTemporaryDirectory { (dir: URL) async throws in
            let scene = try await scene(dir)
            try linkShard(scene)
            let outside = CatalogCompanion(
                role: "sidecar", name: "IMG_1.xmp", path: "../victim/victim.txt", size: 7, sha256: "00")
            let linked = CatalogCompanion(
                role: "sidecar", name: "IMG_1.xmp", path: "originals/zz/victim.txt", size: 7, sha256: "00")
            let id = RandomID.make()
            try forge(
                scene,
                [
                    // A save whose companion leads out, deleted and purged.
                    forgedSave(
                        id, path: "originals/ab/\(id).jpg", bytes: Fixture.uniqueJPEG("x"), companions: [outside]),
                    .deleteAssets([id], at: 1_700_000_001), .purgeAssets([id]),
                    // The owner's photo given a companion outside, then one through a linked
                    // folder, then none: each earlier companion would go.
                    .setCompanions(asset: scene.saved.assetID, companions: [outside]),
                    .setCompanions(asset: scene.saved.assetID, companions: []),
                    .setCompanions(asset: scene.saved.assetID, companions: [linked]),
                    .setCompanions(asset: scene.saved.assetID, companions: []),
                ])
            let library = try await openAndList(scene)
            expectOutsideIntact(scene)
            #expect(try await library.assets(inAlbumTitled: "Trips").map(\.id) == [scene.saved.assetID])
            let problems = try await library.verify().problems
            #expect(problems.filter { $0.contains("../victim/victim.txt") }.count == 2, "\(problems)")
        }
    }

    /// A clip's `.THM` is read to picture the clip (its poster) and removed with it: a companion
    /// record that leads out of the library, directly or through a linked folder, is neither read
    /// nor removed; the record in the library's own form is read (the check can fail).
    @Test(arguments: ["escaping", "linked folder", "the library's own"])
    func aForgedClipThumbnailIsNeitherReadNorRemoved(how: String) async throws {
        try await Fixture.withTemporaryDirectory { (dir: URL) async throws in
            let scene = try await scene(dir)
            try linkShard(scene)
            let poster = Fixture.uniqueJPEG("poster")
            Fixture.write(poster, named: "clip.THM", in: scene.outside)
            let id = RandomID.make()
            let clip = Data("the clip".utf8)
            let shard = scene.library.appendingPathComponent("originals/ab")
            try FileManager.default.createDirectory(at: shard, withIntermediateDirectories: true)
            Fixture.write(clip, named: "\(id).mp4", in: shard)
            let path: String
            switch how {
            case "escaping": path = "../victim/clip.THM"
            case "linked folder": path = "originals/zz/clip.THM"
            default:
                path = "originals/ab/\(id)-1.thm"
                Fixture.write(poster, named: "\(id)-1.thm", in: shard)
            }
            let thumbnail = CatalogCompanion(
                role: "sidecar", name: "MVI_0001.THM", path: path, size: Int64(poster.count),
                sha256: poster.withUnsafeBytes { SHA256Hasher.hash($0) })
            try forge(
                scene,
                [
                    .save(
                        .init(
                            id: id, path: "originals/ab/\(id).mp4", originalName: "MVI_0001.MP4",
                            byteSize: Int64(clip.count), sha256: clip.withUnsafeBytes { SHA256Hasher.hash($0) },
                            kind: "video", format: "mp4", addedAt: 1_700_000_000, metadata: nil,
                            companions: [thumbnail]))
                ])
            _ = try await openAndList(scene)
            let backend = try CatalogBackend.open(at: scene.library)
            // A record leading out is refused whole (the asset is not shown) or its companion is.
            let read = try? await Blocking.run { try backend.clipThumbnail(ofAssetWithID: id) }
            #expect(read.flatMap { $0 }.map { Data($0) } == (how == "the library's own" ? poster : nil), "\(how)")
            try forge(scene, [.deleteAssets([id], at: 1_700_000_001), .purgeAssets([id])])
            _ = try await openAndList(scene)
            expectOutsideIntact(scene)
            #expect((try? Data(contentsOf: scene.outside.appendingPathComponent("clip.THM"))) == poster)
        }
    }

    // MARK: Publishing lists

    @Test func aPlantedPublishingListWithALinkedFolderRemovesNothingOutside() async throws {
        try await Fixture.withTemporaryDirectory { (dir: URL) async throws in
            let scene = try await scene(dir)
            try linkShard(scene, named: "ab")
            // A file outside named as the library names its photos, and the list naming it (and
            // others) as a dead saver's files.
            let name = RandomID.make() + ".jpg"
            Fixture.write(Data("mine".utf8), named: name, in: scene.outside)
            let list = [
                "originals/ab/\(name)", "originals/ab/victim.txt", "originals/ab/secret.jpg",
                "originals/../../victim/victim.txt",
            ]
            Fixture.write(
                Data(list.map { $0 + "\n" }.joined().utf8), named: "owners/p1-0123456789abcdef.publishing",
                in: scene.library)
            let library = try await openAndList(scene)
            expectOutsideIntact(scene)
            #expect((try? String(contentsOf: scene.outside.appendingPathComponent(name), encoding: .utf8)) == "mine")
            #expect(try await library.assets(inAlbumTitled: "Trips").map(\.id) == [scene.saved.assetID])
        }
    }

    /// A dead saver's hidden staging files go; a hidden file of another kind under a dead
    /// owner's name (planted, or another program's) stays.
    @Test func recoveryRemovesOnlyHiddenFilesASaveStages() async throws {
        try await Fixture.withTemporaryDirectory { (dir: URL) async throws in
            let scene = try await scene(dir)
            let owner = "p1-0123456789abcdef"
            let shard = scene.library.appendingPathComponent("originals/ab")
            try FileManager.default.createDirectory(at: shard, withIntermediateDirectories: true)
            let staged = ".\(owner).\(RandomID.make()).partial"
            let other = ".\(owner).\(RandomID.make()).keep"
            Fixture.write(Data("staged".utf8), named: staged, in: shard)
            Fixture.write(Data("other".utf8), named: other, in: shard)
            // The owner file says it staged hidden files; no process holds its lock: dead.
            Fixture.write(
                Data(ProcessOwner.formatLine + ProcessOwner.hiddenStagingLine), named: "owners/" + owner,
                in: scene.library)
            try await openAndList(scene)
            #expect(!FileManager.default.fileExists(atPath: shard.appendingPathComponent(staged).path))
            #expect(FileManager.default.fileExists(atPath: shard.appendingPathComponent(other).path))
        }
    }

    @Test func aPublishingListNamesOnlyWhatASaveNames() {
        let id = "9f2c41d0-7a1b-43e8-9d2e-5b7c0a1f9e64"
        for good in ["originals/3f/\(id).jpg", "originals/00/\(id)-1.xmp", "originals/ff/\(id)-12.cr2"] {
            #expect(LibraryFilePath.isSavedName(good), "\(good)")
        }
        for bad in [
            "originals/3f/victim.txt", "originals/3F/\(id).jpg", "originals/3f/\(id)", "originals/3f/\(id).JPG",
            "originals/3f/\(id)-.jpg", "originals/3f/\(id)-1", "originals/3fa/\(id).jpg", "../3f/\(id).jpg",
            "originals/3f/../\(id).jpg", "originals/3f/x/\(id).jpg", "originals/3f/.\(id).jpg",
            "originals/3f/\(id).jpg/x", "/originals/3f/\(id).jpg",
        ] {
            #expect(!LibraryFilePath.isSavedName(bad), "\(bad)")
        }
        #expect(LibraryFilePath.isOriginal("originals/3f/IMG_0001.JPG"))
        for bad in ["originals/3f", "originals/.x/a.jpg", "originals/3f/.a.jpg", "originals/3f/a\0b", "snapshots/a/b"] {
            #expect(!LibraryFilePath.isOriginal(bad), "\(bad)")
        }
    }

    // MARK: Reading and writing through forged paths

    /// A forged record placing a private file in an album, as `../…` or through a link (a linked
    /// shard folder, a linked file), with that file's true size and SHA-256: export copies none of it.
    @Test(arguments: ["escaping", "linked folder", "linked file"])
    func exportNeverCopiesAFileOutOfTheLibrary(how: String) async throws {
        try await Fixture.withTemporaryDirectory { (dir: URL) async throws in
            let scene = try await scene(dir)
            let id = RandomID.make()
            let path: String
            switch how {
            case "escaping":
                path = "../victim/secret.jpg"
            case "linked folder":
                try linkShard(scene)
                path = "originals/zz/secret.jpg"
            default:
                path = "originals/ab/\(id).jpg"
                try FileManager.default.createDirectory(
                    at: scene.library.appendingPathComponent("originals/ab"), withIntermediateDirectories: true)
                try FileManager.default.createSymbolicLink(
                    atPath: scene.library.appendingPathComponent(path).path, withDestinationPath: scene.secret.path)
            }
            let album = RandomID.make()
            try forge(
                scene,
                [
                    forgedSave(id, path: path, bytes: Self.secretBytes),
                    .createAlbum(id: album, title: "Loot", createdAt: 1_700_000_000),
                    .addToAlbum(album: album, assets: [id, scene.saved.assetID], at: 1_700_000_000),
                ])
            let library = try await openAndList(scene)
            let target = dir.appendingPathComponent("export")
            let report = try await library.exportAlbum(titled: "Loot", to: target)
            await Blocking.acknowledgedWorkFinished()
            let exported = Fixture.files(under: target).compactMap {
                try? Data(contentsOf: target.appendingPathComponent($0))
            }
            #expect(!exported.contains(Self.secretBytes), "\(report)")
            #expect(report.exported.map(\.assetID) == [scene.saved.assetID])
            expectOutsideIntact(scene)
        }
    }

    /// A forged record naming a file outside with a photo's size and SHA-256: saving that photo
    /// (which would restore a "damaged" original in place) never writes over the outside file.
    @Test(arguments: ["escaping", "linked folder"])
    func aReSaveNeverWritesOverAFileOutside(how: String) async throws {
        try await Fixture.withTemporaryDirectory { (dir: URL) async throws in
            let scene = try await scene(dir)
            let photo = Fixture.uniqueJPEG("resave")
            let path: String
            if how == "escaping" {
                path = "../victim/victim.txt"
            } else {
                try linkShard(scene)
                path = "originals/zz/victim.txt"
            }
            try forge(scene, [forgedSave(RandomID.make(), path: path, bytes: photo)])
            let library = try await openAndList(scene)
            let outcome: Result<SavedAsset, any Error>
            do {
                outcome = .success(try await library.album(titled: "Trips").save(.data(photo, filename: "P.JPG")))
            } catch {
                outcome = .failure(error)
            }
            await Blocking.acknowledgedWorkFinished()
            expectOutsideIntact(scene)
            #expect(!FileManager.default.fileExists(atPath: scene.library.appendingPathComponent("damaged").path))
            // The forged record is not believed (its path leads out), or its file cannot be put
            // back (its folder is a link): the photo is saved as an asset of its own.
            let saved = try outcome.get()
            #expect(!saved.isExisting)
            #expect(try await library.assets(inAlbumTitled: "Trips").count == 2)
        }
    }

    /// An original replaced by a link to a file outside holding the same bytes (or its shard folder
    /// replaced by a link to a copy of it): `verify` reports it, it does not pass.
    @Test(arguments: ["linked file", "linked folder"])
    func verifyReportsAnOriginalReachedThroughALink(how: String) async throws {
        try await Fixture.withTemporaryDirectory { (dir: URL) async throws in
            let scene = try await scene(dir)
            let originals = scene.library.appendingPathComponent("originals")
            let relative = try #require(Fixture.files(under: originals).first { !$0.contains("/.") })
            let shard = originals.appendingPathComponent((relative as NSString).deletingLastPathComponent)
            let copy = scene.outside.appendingPathComponent("copy")
            try FileManager.default.copyItem(at: shard, to: copy)
            if how == "linked file" {
                let file = originals.appendingPathComponent(relative)
                try FileManager.default.removeItem(at: file)
                try FileManager.default.createSymbolicLink(
                    atPath: file.path,
                    withDestinationPath: copy.appendingPathComponent((relative as NSString).lastPathComponent).path)
            } else {
                try FileManager.default.removeItem(at: shard)
                try FileManager.default.createSymbolicLink(atPath: shard.path, withDestinationPath: copy.path)
            }
            let library = try await openAndList(scene)
            let problems = try await library.verify().problems
            #expect(
                problems.contains { $0.contains("not a regular file inside the library: a symbolic link") },
                "\(problems)")
        }
    }

    // MARK: Purges

    @Test func aForgedPurgeOfAShownPhotoIsRefusedAndReported() async throws {
        try await Fixture.withTemporaryDirectory { (dir: URL) async throws in
            let scene = try await scene(dir)
            let file = try #require(
                Fixture.files(under: scene.library.appendingPathComponent("originals")).first { !$0.contains("/.") })
            try forge(scene, [.purgeAssets([scene.saved.assetID])])
            let library = try await openAndList(scene)
            #expect(try await library.assets(inAlbumTitled: "Trips").map(\.id) == [scene.saved.assetID])
            #expect(
                FileManager.default.fileExists(
                    atPath: scene.library.appendingPathComponent("originals").appendingPathComponent(file).path))
            let problems = try await library.verify().problems
            #expect(problems.contains { $0.contains("not applied") && $0.contains(scene.saved.assetID) }, "\(problems)")
            // `repair` deals with it; the photo stays.
            _ = try await PhotoLibrary.repair(catalogAt: scene.library)
            let repaired = try await openAndList(scene)
            #expect(try await repaired.verify().isHealthy)
            #expect(try await repaired.assets(inAlbumTitled: "Trips").map(\.id) == [scene.saved.assetID])
        }
    }

    @Test func aPermanentDeletionOfAShownPhotoStillDeletesIt() async throws {
        try await Fixture.withTemporaryDirectory { (dir: URL) async throws in
            let scene = try await scene(dir)
            let library = try await openAndList(scene)
            _ = try await library.deleteAssets(withIDs: [scene.saved.assetID], permanently: true)
            await Blocking.acknowledgedWorkFinished()
            #expect(try await library.assets(inAlbumTitled: "Trips").isEmpty)
            let reopened = try await openAndList(scene)
            #expect(try await reopened.recentlyDeletedAssets().isEmpty)
            #expect(try await reopened.verify().isHealthy)
            #expect(
                Fixture.files(under: scene.library.appendingPathComponent("originals")).filter { !$0.contains("/.") }
                    .isEmpty)
        }
    }
}
