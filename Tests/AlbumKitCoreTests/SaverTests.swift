import AlbumKitConformance
import Foundation
import Testing

@testable import AlbumKitCore

/// The saver's rules, against a backend that scripts its trouble.
@Suite struct SaverTests {
    let backend = ScriptedSaverBackend()
    var library: PhotoLibrary { PhotoLibrary(backend: backend) }

    @Test func missingAlbumIsCreatedThenFound() async throws {
        // Given an empty library
        let album = library.album(titled: "Touch Code Magazine")
        // When saving twice
        let first = try await album.save(.file(Fixture.jpeg))
        let second = try await album.save(.file(Fixture.jpeg))
        // Then the album is created once and found the second time
        #expect(first.albumOutcome == .created)
        #expect(second.albumOutcome == .found)
        #expect(first.albumID == second.albumID)
        #expect(backend.state.withLock { $0.albums.count } == 1)
    }

    /// Saves at once in one process share its open files: a batch sizes its chunks to what the
    /// others leave it (here another holds all but 56 descriptors: chunks of at most 14), not to
    /// the whole budget (two chunks of 64).
    @Test func aBatchSizesItsChunksToItsShareOfTheOpenFiles() async throws {
        var saver = Saver(backend: backend)
        saver.descriptorShares = DescriptorShares { 1_000 }
        let held = saver.descriptorShares.take(upTo: 1_000 - 56)
        let results = await saver.save(
            Array(repeating: Media.file(Fixture.jpeg), count: 128), to: try AlbumTitle("Shared budget"),
            policy: .requireAlbum, progress: nil)
        #expect(results.allSatisfy { (try? $0.get()) != nil })
        let inChunksOf14 = (128 + 13) / 14
        #expect(backend.state.withLock { $0.commits } == inChunksOf14)
        // Given back, the same batch takes two commits (of 64, the backend's preference).
        saver.descriptorShares.giveBack(held)
        _ = await saver.save(
            Array(repeating: Media.file(Fixture.jpeg), count: 128), to: try AlbumTitle("Shared budget"),
            policy: .requireAlbum, progress: nil)
        #expect(backend.state.withLock { $0.commits } == inChunksOf14 + 2)
    }

    /// A share is what the others leave, never less than the smallest (so a save goes on), and
    /// comes back when given back.
    @Test func sharesDivideTheBudget() {
        let shares = DescriptorShares { 100 }
        #expect(shares.take(upTo: 60) == 60)
        #expect(shares.take(upTo: 60) == 40)
        #expect(shares.take(upTo: 60) == DescriptorShares.smallestShare)
        shares.giveBack(60)
        #expect(shares.take(upTo: 60) == 60 - DescriptorShares.smallestShare)
    }

    @Test func deletedAlbumIsRecreated() async throws {
        let album = library.album(titled: "Trips")
        let first = try await album.save(.file(Fixture.jpeg))
        backend.userDeletesAlbum(id: try #require(first.albumID))
        let second = try await album.save(.file(Fixture.jpeg))
        #expect(second.albumOutcome == .recreated)
        #expect(second.albumID != first.albumID)
    }

    @Test func albumVanishingBeforeCommitIsRetriedOnce() async throws {
        // Given an album that exists and is found by title
        let id = backend.userCreatesAlbum(titled: "Trips")
        // When it disappears between lookup and commit
        backend.state.withLock { $0.vanishBeforeCommit = 1 }
        let saved = try await library.album(titled: "Trips").save(.file(Fixture.jpeg))
        // Then the saver re-resolves, creates a new one and says so
        #expect(saved.albumOutcome == .recreated)
        #expect(saved.albumID != id)
        #expect(backend.state.withLock { $0.commits } == 2)
        #expect(backend.state.withLock { $0.assets.count } == 1)
    }

    @Test func albumVanishingTwiceFailsWithNothingSaved() async throws {
        _ = backend.userCreatesAlbum(titled: "Trips")
        let other = backend.userCreatesAlbum(titled: "Trips")
        backend.state.withLock { $0.vanishBeforeCommit = 2 }
        _ = other
        await #expect(throws: AlbumError.self) {
            do { try await library.album(titled: "Trips").save(.file(Fixture.jpeg)) } catch {
                #expect((error as? AlbumError)?.code == .albumUnavailable)
                throw error
            }
        }
        #expect(backend.state.withLock { $0.assets.isEmpty })
    }

    @Test func renamedAlbumIsFollowedByItsIdentifier() async throws {
        let album = library.album(titled: "Trips")
        let first = try await album.save(.file(Fixture.jpeg))
        // The user renames it, then another album takes the old title.
        backend.userRenamesAlbum(id: first.albumID!, to: "Holidays")
        _ = backend.userCreatesAlbum(titled: "Trips")
        let second = try await album.save(.file(Fixture.jpeg))
        #expect(second.albumID == first.albumID)
        #expect(second.albumOutcome == .found)
    }

    @Test func duplicateTitlesResolveToTheOldestEveryTime() async throws {
        let oldest = backend.userCreatesAlbum(titled: "Trips")
        _ = backend.userCreatesAlbum(titled: "Trips")
        for _ in 0..<3 {
            // A fresh backend memory each time: no remembered id, lookup by title.
            backend.state.withLock { $0.remembered = [:] }
            let saved = try await library.album(titled: "Trips").save(.file(Fixture.jpeg))
            #expect(saved.albumID == oldest)
        }
    }

    @Test func titlesAreComparedAfterNFCAndTrimmed() async throws {
        let composed = try await library.album(titled: "Caf\u{E9}").save(.file(Fixture.jpeg))
        let decomposed = try await library.album(titled: "  Cafe\u{301} ").save(.file(Fixture.jpeg))
        #expect(composed.albumID == decomposed.albumID)
        #expect(backend.state.withLock { $0.albums.first?.title.text } == "Caf\u{E9}")
    }

    @Test(arguments: ["", "   ", "Bad\u{7}Title", "Tab\there", String(repeating: "é", count: 128)])
    func invalidTitlesFailBeforeAnythingIsWritten(title: String) async throws {
        let results = await library.album(titled: title).save([.file(Fixture.jpeg), .file(Fixture.png)])
        #expect(results.allSatisfy { $0.error?.code == .invalidAlbumTitle })
        #expect(backend.state.withLock { $0.commits } == 0)
    }

    @Test func titlesKeepInnerSpacesAndAnyScript() throws {
        #expect(try AlbumTitle(" Été  à Paris 東京 🎉 ").text == "Été  à Paris 東京 🎉")
        #expect(try AlbumTitle(String(repeating: "a", count: 255)).text.count == 255)
    }

    @Test func batchReportsPerItemAndProgress() async throws {
        await Fixture.withTemporaryDirectory { dir in
            let text = Fixture.write(Data("hello".utf8), named: "note.jpg", in: dir)
            let empty = Fixture.write(Data(), named: "empty.jpg", in: dir)
            let media: [Media] = [
                .file(Fixture.jpeg), .file(text), .file(dir.appendingPathComponent("missing.png")),
                .file(empty), .file(dir), .file(Fixture.png),
            ]
            let counter = Locked<[SaveProgress]>([])
            let streamed = Locked<[(Int, Result<SavedAsset, AlbumError>)]>([])
            let results = await library.album(titled: "Batch").save(media) { p in
                counter.withLock { $0.append(p) }
            } onResult: { index, result in
                streamed.withLock { $0.append((index, result)) }
            }
            // An empty file named as a photo is a photo lost (a camera that did not finish writing):
            // damaged, not "not a photo".
            #expect(
                results.map { $0.error?.code } == [nil, .notMedia, .fileNotFound, .corruptMedia, .fileUnreadable, nil])
            #expect(results[1].error?.file?.hasSuffix("note.jpg") == true)
            #expect(
                results[3].error?.message.hasSuffix("empty.jpg: empty file (0 bytes). Nothing was saved for it.")
                    == true)
            // Each result is handed over once, in input order, and equals the returned one.
            let handed = streamed.withLock { $0 }
            #expect(handed.map(\.0) == Array(0..<6))
            #expect(handed.map { $0.1.error?.code } == results.map { $0.error?.code })
            #expect(handed.map { try? $0.1.get().assetID } == results.map { try? $0.get().assetID })
            // Progress moves once per item prepared and once per item finished.
            let progress = counter.withLock { $0 }
            #expect(progress.count == 12)
            #expect(progress.map(\.prepared) == progress.map(\.prepared).sorted())
            #expect(Set(progress.map(\.completed)) == Set(0...6))
            var last = SaveProgress(completed: 6, total: 6, failed: 4)
            last.prepared = 6
            #expect(progress.last == last)
            #expect(backend.state.withLock { $0.albums.first?.members.count } == 2)
        }
    }

    @Test func failedCommitSavesNothingAndReportsEveryItem() async throws {
        backend.state.withLock { $0.failNextCommit = AlbumError(.notEnoughSpace, "full") }
        let results = await library.album(titled: "Trips").save([.file(Fixture.jpeg), .file(Fixture.png)])
        #expect(results.allSatisfy { $0.error?.code == .notEnoughSpace })
        #expect(backend.state.withLock { $0.assets.isEmpty && $0.albums.isEmpty })
    }

    @Test func unavailableAlbumFailsOrSkipsByPolicy() async throws {
        backend.state.withLock { $0.albumRefusal = "the app may only add photos" }
        // Default policy: fail before saving anything.
        await #expect(throws: AlbumError.self) { try await library.album(titled: "Trips").save(.file(Fixture.jpeg)) }
        #expect(backend.state.withLock { $0.commits } == 0)
        // Opt-in policy: saved to the library, album skipped.
        let saved = try await library.album(titled: "Trips", accessPolicy: .saveToLibraryWhenAlbumUnavailable)
            .save(.file(Fixture.jpeg))
        #expect(saved.albumOutcome == .skipped("the app may only add photos"))
        #expect(saved.albumID == nil)
        #expect(backend.state.withLock { $0.assets.count } == 1)
    }

    @Test func concurrentSavesIntoANewAlbumCreateOneAlbum() async throws {
        let album = library.album(titled: "Race")
        let results = await withTaskGroup(of: SavedAsset?.self) { group in
            for _ in 0..<100 { group.addTask { try? await album.save(.data(Fixture.jpegBytes, filename: "x.jpg")) } }
            return await group.reduce(into: [SavedAsset?]()) { $0.append($1) }
        }
        #expect(results.compactMap { $0 }.count == 100)
        #expect(Set(results.compactMap { $0?.albumID }).count == 1)
        #expect(backend.state.withLock { $0.createdAlbums } == 1)
        #expect(results.filter { $0?.albumOutcome == .created }.count == 1)
    }

    @Test func completionIsCalledExactlyOnceOnEveryPath() async throws {
        let calls = Locked<[Result<SavedAsset, AlbumError>]>([])
        let queue = DispatchQueue(label: "test.completion")
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let remaining = Locked(3)
            let finish: @Sendable (Result<SavedAsset, AlbumError>) -> Void = { result in
                dispatchPrecondition(condition: .onQueue(queue))
                calls.withLock { $0.append(result) }
                if remaining.withLock({ n -> Bool in
                    n -= 1
                    return n == 0
                }) {
                    done.resume()
                }
            }
            library.album(titled: "Trips").save(.file(Fixture.jpeg), queue: queue, completion: finish)
            library.album(titled: " ").save(.file(Fixture.jpeg), queue: queue, completion: finish)
            library.save(
                .file(URL(fileURLWithPath: "/nonexistent.jpg")), toAlbum: "Trips", queue: queue, completion: finish)
        }
        try await Task.sleep(for: .milliseconds(100))  // a second call would land here
        let results = calls.withLock { $0 }
        #expect(results.count == 3)
        #expect(results.filter { $0.value != nil }.count == 1)
        #expect(Set(results.compactMap { $0.error?.code }) == [.invalidAlbumTitle, .fileNotFound])
    }
}
