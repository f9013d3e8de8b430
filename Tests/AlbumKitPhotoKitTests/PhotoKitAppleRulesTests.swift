#if !canImport(ObjectiveC)
    import AlbumKitCore
    import Foundation
    import PhotoKitSimulator
    import Testing

    @testable import AlbumKitPhotoKit

    /// What Apple documents (canPerform, failable change requests, no fetch order) and what it does
    /// not (limited access and albums, errors when an album vanishes), each tried both ways.
    @Suite struct PhotoKitAppleRulesTests {
        // MARK: Duplicate titles: one rule, whatever the fetch order

        /// Album fetches come back shuffled (Apple documents no order); every fresh lookup still
        /// picks the album whose photos go back furthest, then the fullest.
        @Test func duplicateTitlesResolveByTheDocumentedRuleNotFetchOrder() async throws {
            let h = PhotoKitHarness()
            h.simulation.setAuthorizationStatus(.authorized, for: .readWrite)
            let day: TimeInterval = 86_400
            let recent = h.simulation.userAddsAsset(creationDate: Date(timeIntervalSince1970: 1_600_000_000))
            let old = h.simulation.userAddsAsset(creationDate: Date(timeIntervalSince1970: 1_400_000_000))
            let older = h.simulation.userAddsAsset(creationDate: Date(timeIntervalSince1970: 1_400_000_000 - day))
            h.simulation.userCreatesAlbum(titled: "Dup")  // created first, empty: goes last
            h.simulation.userCreatesAlbum(titled: "Dup", assetLocalIdentifiers: [recent])
            let expected = h.simulation.userCreatesAlbum(titled: "Dup", assetLocalIdentifiers: [older])
            h.simulation.userCreatesAlbum(titled: "Dup", assetLocalIdentifiers: [old, recent])
            for _ in 0..<20 {
                let backend = PhotoKitBackend(store: InMemoryAlbumStore())
                let found = try await h.run { try await backend.findAlbum(titled: try AlbumTitle("Dup")) }
                #expect(found == expected)
            }
        }

        @Test func emptyAlbumsWithOneTitleResolveToTheSameOneEveryTime() async throws {
            let h = PhotoKitHarness()
            h.simulation.setAuthorizationStatus(.authorized, for: .readWrite)
            let ids = (0..<5).map { _ in h.simulation.userCreatesAlbum(titled: "Empty") }
            var found = Set<String>()
            for _ in 0..<20 {
                let backend = PhotoKitBackend(store: InMemoryAlbumStore())
                let id = try await h.run { try await backend.findAlbum(titled: try AlbumTitle("Empty")) }
                found.insert(try #require(id))
            }
            #expect(found == [ids.min()!])
        }

        /// Listing albums gives the same order every time, though every fetch comes back shuffled.
        @Test func albumListIsInOneOrderEveryTime() async throws {
            let h = PhotoKitHarness()
            h.simulation.setAuthorizationStatus(.authorized, for: .readWrite)
            let photo = h.simulation.userAddsAsset(creationDate: Date(timeIntervalSince1970: 1_000_000_000))
            for title in ["B", "A", "C", "A"] { h.simulation.userCreatesAlbum(titled: title) }
            let first = h.simulation.userCreatesAlbum(titled: "Z", assetLocalIdentifiers: [photo])
            let lists = try await h.run {
                var lists: [[String]] = []
                for _ in 0..<10 { lists.append(try await h.library.albums().map(\.id)) }
                return lists
            }
            #expect(Set(lists).count == 1)
            #expect(lists[0].first == first)  // the album whose photos go back furthest
            #expect(lists[0].count == 5)
        }

        // MARK: Albums AlbumKit must never use

        @Test func rememberedSmartAlbumIsNeverUsed() async throws {
            let h = PhotoKitHarness()
            h.simulation.setAuthorizationStatus(.authorized, for: .readWrite)
            h.store.remember(h.simulation.recentsLocalIdentifier, forTitleKey: "Trips")
            let saved = try await h.run { try await h.library.album(titled: "Trips").save(.file(PhotoKitHarness.jpeg)) }
            #expect(saved.albumID != h.simulation.recentsLocalIdentifier)
            #expect(h.simulation.albums(titled: "Trips").map(\.localIdentifier) == [saved.albumID])
            #expect(h.store.albumIdentifier(forTitleKey: "Trips") == saved.albumID)
        }

        @Test func sharedAlbumIsNeverUsedRememberedOrByTitle() async throws {
            let h = PhotoKitHarness()
            let shared = h.simulation.userJoinsSharedAlbum(titled: "Trips")
            h.store.remember(shared, forTitleKey: "Trips")
            let saved = try await h.run { try await h.library.album(titled: "Trips").save(.file(PhotoKitHarness.jpeg)) }
            #expect(saved.albumID != shared)
            #expect(h.simulation.album(withLocalIdentifier: shared)?.assetLocalIdentifiers == [])
            #expect(h.simulation.album(withLocalIdentifier: saved.albumID!)?.assetLocalIdentifiers == [saved.assetID])
            // A fresh store: the shared album is not found by its title either.
            let fresh = PhotoKitBackend(store: InMemoryAlbumStore())
            let found = try await h.run { try await fresh.findAlbum(titled: try AlbumTitle("Trips")) }
            #expect(found == saved.albumID)
        }

        /// A folder (`PHCollectionList`) is not an asset collection: its identifier resolves to nothing.
        @Test func rememberedIdentifierThatIsNoAlbumIsNeverUsed() async throws {
            let h = PhotoKitHarness()
            h.store.remember("4E9A1C2B-0000-4000-8000-000000000001/L0/040", forTitleKey: "Trips")
            let saved = try await h.run { try await h.library.album(titled: "Trips").save(.file(PhotoKitHarness.jpeg)) }
            #expect(saved.albumOutcome == .recreated)
            #expect(h.simulation.albums.count == 1)
        }

        @Test func smartAndSharedAlbumsAreNeitherRenamedNorDeleted() async throws {
            let h = PhotoKitHarness()
            h.simulation.setAuthorizationStatus(.authorized, for: .readWrite)
            let shared = h.simulation.userJoinsSharedAlbum(titled: "Family")
            let backend = PhotoKitBackend(store: h.store)
            for id in [shared, h.simulation.recentsLocalIdentifier] {
                await h.run {
                    await #expect(throws: AlbumError.self) {
                        try await backend.renameAlbum(id: id, to: AlbumTitle("X"))
                    }
                    await #expect(throws: AlbumError.self) { try await backend.deleteAlbum(id: id, force: true) }
                }
            }
            #expect(h.simulation.album(withLocalIdentifier: shared)?.title == "Family")
            #expect(h.simulation.changeBlockCount == 0)
            #expect(h.store.albumIdentifier(forTitleKey: "X") == nil)
        }

        // MARK: Commit failures

        /// The album is deleted while Photos commits, and Photos reports it with a code other than
        /// `identifierNotFound` but names the album: the saver resolves again and retries once.
        @Test(arguments: [PHPhotosError.Code.invalidResource, .changeNotSupported, .internalError])
        func commitFailureNamingTheAlbumIsRetriedIntoARecreatedAlbum(code: PHPhotosError.Code) async throws {
            let h = PhotoKitHarness()
            h.simulation.staleReferencePolicy = .fail(code)
            let existing = h.simulation.userCreatesAlbum(titled: "Trips")
            h.simulation.beforeNextCommit { simulation in
                _ = simulation.userDeletesAlbum(withLocalIdentifier: existing)
            }
            let saved = try await h.run { try await h.library.album(titled: "Trips").save(.file(PhotoKitHarness.jpeg)) }
            #expect(saved.albumOutcome == .recreated)
            #expect(h.simulation.failedChangeBlockCount == 1)
            #expect(h.simulation.assets.map(\.localIdentifier) == [saved.assetID])
            #expect(h.simulation.albums.map(\.assetLocalIdentifiers) == [[saved.assetID]])
        }

        /// A failure that does not concern the album is not retried and keeps its meaning.
        @Test func commitFailureNotNamingTheAlbumIsNotRetried() async throws {
            let h = PhotoKitHarness()
            let existing = h.simulation.userCreatesAlbum(titled: "Trips")
            h.simulation.failNextCommit(with: .notEnoughSpace)
            let result = await h.run { await h.library.album(titled: "Trips").save([.file(PhotoKitHarness.jpeg)])[0] }
            #expect(result.error?.code == .notEnoughSpace)
            #expect(h.simulation.changeBlockCount == 1)
            #expect(h.simulation.album(withLocalIdentifier: existing)?.assetLocalIdentifiers == [])
        }

        // MARK: Limited access: attempted, then the failure mapped

        @Test func limitedAccessThatPhotosRefusesFailsOrSkipsTheAlbumByPolicy() async throws {
            let h = PhotoKitHarness(answering: .limited)
            h.simulation.limitedAccessAlbums = .refused
            let strict = await h.run { await h.library.album(titled: "A").save([.file(PhotoKitHarness.jpeg)])[0] }
            #expect(strict.error?.code == .accessDenied)
            #expect(strict.error?.message.contains("limited photo access") == true)
            #expect(h.simulation.failedChangeBlockCount >= 1)  // tried, not refused up front
            #expect(h.simulation.assets.isEmpty)

            let lenient = h.library.album(titled: "A", accessPolicy: .saveToLibraryWhenAlbumUnavailable)
            let saved = try await h.run { try await lenient.save(.file(PhotoKitHarness.jpeg)) }
            guard case .skipped(let reason) = saved.albumOutcome else {
                Issue.record("expected .skipped, got \(String(describing: saved.albumOutcome))")
                return
            }
            #expect(reason.contains("limited photo access"))
            #expect(saved.albumID == nil)
            #expect(h.simulation.assets.map(\.localIdentifier) == [saved.assetID])
            #expect(h.simulation.albums.isEmpty)
        }

        @Test func limitedAccessThatPhotosAllowsSavesIntoTheAlbum() async throws {
            let h = PhotoKitHarness(answering: .limited)
            h.simulation.limitedAccessAlbums = .allowed
            let album = h.library.album(titled: "A")
            let first = try await h.run { try await album.save(.file(PhotoKitHarness.jpeg)) }
            let second = try await h.run { try await album.save(.file(PhotoKitHarness.jpeg)) }
            #expect(first.albumOutcome == .created)
            #expect(second.albumOutcome == .found)
            #expect(h.simulation.albums.map(\.assetLocalIdentifiers) == [[first.assetID, second.assetID]])
        }

        // MARK: Managing albums

        /// Photos gives no change request (the album went away after it was looked up): nothing is
        /// renamed, an error says so, and the new title is not remembered.
        @Test func renameWithoutAChangeRequestFailsAndRemembersNothing() async throws {
            let h = PhotoKitHarness()
            h.simulation.setAuthorizationStatus(.authorized, for: .readWrite)
            let id = h.simulation.userCreatesAlbum(titled: "Old")
            h.simulation.beforeChangeBlock(1) { simulation in _ = simulation.userDeletesAlbum(withLocalIdentifier: id) }
            let backend = PhotoKitBackend(store: h.store)
            _ = await h.run {
                await #expect(throws: AlbumError.self) { try await backend.renameAlbum(id: id, to: AlbumTitle("New")) }
            }
            #expect(h.store.albumIdentifier(forTitleKey: "New") == nil)
        }

        @Test func assetSizesFromPhotosAreUnknownNotZero() async throws {
            let h = PhotoKitHarness()
            _ = try await h.run { try await h.library.album(titled: "A").save(.file(PhotoKitHarness.jpeg)) }
            let assets = try await h.run { try await h.library.assets(inAlbumTitled: "A") }
            #expect(assets.count == 1)
            #expect(assets.allSatisfy { $0.byteSize == nil })
        }
    }
#endif
