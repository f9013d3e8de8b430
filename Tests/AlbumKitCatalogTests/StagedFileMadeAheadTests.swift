import AlbumKitConformance
import Foundation
import Testing

@testable import AlbumKitCatalog
@testable import AlbumKitCore

#if os(Linux)
    /// The staged file made ahead for the next lone save: taken only in the folder it was made in,
    /// never while a fault is injected into staging, and used by the catalog's next lone save.
    @Suite struct StagedFileMadeAheadTests {
        /// Writes `text` into `staged`, publishes it as `name`, and reads it back from `folder`.
        func publish(_ staged: FileSystem.StagedFile, as name: String, writing text: String, in folder: URL) throws
            -> String
        {
            try FileSystem.write(staged.descriptor, Array(text.utf8))
            try FileSystem.publish(staged, as: name)
            FileSystem.close(staged.descriptor)
            return try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        }

        func folder(_ dir: URL, _ name: String) throws -> FileSystem.Descriptor {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return try FileSystem.openDirectory(url.path)
        }

        @Test func theFileMadeAheadIsTakenInItsOwnFolderAndNowhereElse() async throws {
            try await Fixture.withTemporaryDirectory { dir in
                let first = try folder(dir, "a")
                defer { FileSystem.close(first) }
                let second = try folder(dir, "b")
                defer { FileSystem.close(second) }

                FileSystem.prepareStagedFileAhead(in: first)
                let madeAhead = try #require(FileSystem.stagedFileMadeAheadInode(in: first))
                // Another folder: a fresh file there; the file made ahead stays for its own folder.
                let elsewhere = try FileSystem.stage(in: second, as: StagingName(kind: "partial"))
                #expect(try FileSystem.version(of: elsewhere.descriptor).inode != madeAhead)
                #expect(FileSystem.stagedFileMadeAheadInode(in: first) == madeAhead)
                #expect(try publish(elsewhere, as: "b.txt", writing: "b", in: dir.appendingPathComponent("b")) == "b")

                // Its own folder: the file made ahead itself, published like any staged file.
                let taken = try FileSystem.stage(in: first, as: StagingName(kind: "partial"))
                #expect(try FileSystem.version(of: taken.descriptor).inode == madeAhead)
                #expect(taken.temporaryName == nil)
                #expect(FileSystem.stagedFileMadeAheadInode(in: first) == nil)
                #expect(try publish(taken, as: "a.txt", writing: "a", in: dir.appendingPathComponent("a")) == "a")
            }
        }

        /// A folder removed and made again at the same path is staged into as any other: whether
        /// or not it was given the old one's inode number, its file is published there intact.
        @Test func aFolderMadeAgainAtTheSamePathStagesAsAnyOther() async throws {
            try await Fixture.withTemporaryDirectory { dir in
                let old = try folder(dir, "shard")
                FileSystem.prepareStagedFileAhead(in: old)
                #expect(FileSystem.stagedFileMadeAheadInode(in: old) != nil)
                FileSystem.close(old)
                try FileManager.default.removeItem(at: dir.appendingPathComponent("shard"))
                let new = try folder(dir, "shard")
                defer { FileSystem.close(new) }
                let staged = try FileSystem.stage(in: new, as: StagingName(kind: "partial"))
                #expect(try publish(staged, as: "x.jpg", writing: "x", in: dir.appendingPathComponent("shard")) == "x")
            }
        }

        /// With `O_TMPFILE` refused (a fault injected), staging takes the fallback it was armed for,
        /// even with a file made ahead waiting; and none is made meanwhile.
        @Test func anInjectedStagingFaultIsSeenEvenWithAFileMadeAhead() async throws {
            try await Fixture.withTemporaryDirectory { dir in
                let shard = try folder(dir, "shard")
                defer { FileSystem.close(shard) }
                FileSystem.prepareStagedFileAhead(in: shard)
                let madeAhead = try #require(FileSystem.stagedFileMadeAheadInode(in: shard))
                let rule = FaultInjector.inject(.openTemporary, under: shard.path, errno: EOPNOTSUPP)
                defer { FaultInjector.remove(rule) }
                let staged = try FileSystem.stage(in: shard, as: StagingName(kind: "partial"))
                #expect(staged.temporaryName != nil)
                FileSystem.abandon(staged)
                #expect(FileSystem.stagedFileMadeAheadInode(in: shard) == madeAhead)
                FileSystem.abandon(try FileSystem.stage(in: shard, as: StagingName(kind: "partial")))
                #expect(FileSystem.stagedFileMadeAheadInode(in: shard) == madeAhead)
                let other = try folder(dir, "shard/inner")
                defer { FileSystem.close(other) }
                FileSystem.prepareStagedFileAhead(in: other)
                #expect(FileSystem.stagedFileMadeAheadInode(in: other) == nil)
            }
        }

        /// A lone save leaves a file made ahead in its shard folder once acknowledged, and the next lone save
        /// into that folder is written into it: the file the library keeps is that inode.
        @Test func theCatalogsNextLoneSaveIsWrittenIntoTheFileMadeAhead() async throws {
            try await Fixture.withTemporaryDirectory { dir in
                let backend = try CatalogBackend.open(at: dir.appendingPathComponent("MadeAhead.albumlibrary"))
                let library = PhotoLibrary(backend: backend)
                let album = library.album(titled: "A")
                var wroteIntoFileMadeAhead = false
                // The shard folder follows the clock (16 s): tried again should it change between saves.
                // Other tests' libraries saving meanwhile may push its file made ahead out (a few are kept).
                for attempt in 0..<10 where !wroteIntoFileMadeAhead {
                    let first = try await album.save(.data(Fixture.uniqueJPEG("first \(attempt)"), filename: "1.jpg"))
                    await Blocking.acknowledgedWorkFinished()
                    let firstPath = try #require(
                        try await library.assets(inAlbumTitled: "A").first { $0.id == first.assetID }?.fileURL)
                    let shard = try FileSystem.openDirectory(firstPath.deletingLastPathComponent().path)
                    defer { FileSystem.close(shard) }
                    guard let madeAhead = FileSystem.stagedFileMadeAheadInode(in: shard) else { continue }
                    let second = try await album.save(.data(Fixture.uniqueJPEG("second \(attempt)"), filename: "2.jpg"))
                    let secondPath = try #require(
                        try await library.assets(inAlbumTitled: "A").first { $0.id == second.assetID }?.fileURL)
                    let kept = try #require(FileSystem.fileStatus(atPath: secondPath.path, following: false))
                    wroteIntoFileMadeAhead = kept.inode == madeAhead
                }
                #expect(wroteIntoFileMadeAhead)
                #expect(try await library.verify().isHealthy)
            }
        }
    }
#endif
