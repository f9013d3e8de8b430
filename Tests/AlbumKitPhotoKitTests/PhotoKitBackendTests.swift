#if !canImport(ObjectiveC)
    import AlbumKitCore
    import Foundation
    import PhotoKitSimulator
    import Testing

    @testable import AlbumKitPhotoKit

    /// The PhotoKit backend, on Linux, through the PhotoKit simulator: the classic recipes' scenarios, every access
    /// level, race windows, injected commit failures, videos and Live Photos.
    @Suite struct PhotoKitBackendTests {
        @Test("Photos keeps no share links: listing, making and revoking them answer notSupported")
        func shareLinksAreNotSupported() async throws {
            let h = PhotoKitHarness()
            let saved = try await h.run { try await h.library.album(titled: "Trip").save(.file(PhotoKitHarness.jpeg)) }
            let albumID = try #require(saved.albumID)
            func code(_ body: () async throws -> Void) async -> AlbumError.Code? {
                do { try await h.run { try await body() } } catch let error as AlbumError { return error.code } catch {
                    return nil
                }
                return nil
            }
            #expect(await code { _ = try await h.library.shareLinks() } == .notSupported)
            #expect(await code { _ = try await h.library.createShareLink(forAlbumWithID: albumID) } == .notSupported)
            #expect(await code { try await h.library.revokeShareLink(withID: "0123456789") } == .notSupported)
        }

        // MARK: The classic recipes' scenarios

        @Test func newAlbumIsCreatedWithTheAssetInOneChangeBlock() async throws {
            let h = PhotoKitHarness()
            let saved = try await h.run {
                try await h.library.album(titled: "Touch Code Magazine").save(.file(PhotoKitHarness.jpeg))
            }
            #expect(saved.albumOutcome == .created)
            #expect(h.simulation.changeBlockCount == 1)
            let album = try #require(h.simulation.albums(titled: "Touch Code Magazine").first)
            #expect(album.localIdentifier == saved.albumID)
            #expect(album.assetLocalIdentifiers == [saved.assetID])
            // The original bytes went in, with the original file name.
            let resource = try #require(h.simulation.asset(withLocalIdentifier: saved.assetID)?.resources.first)
            #expect(resource.type == .photo)
            #expect(resource.originalFilename == "harbour.jpg")
            #expect(resource.data == (try Data(contentsOf: PhotoKitHarness.jpeg)))
        }

        @Test func existingAlbumIsFoundByRememberedIdentifier() async throws {
            let h = PhotoKitHarness()
            let album = h.library.album(titled: "Trips")
            let first = try await h.run { try await album.save(.file(PhotoKitHarness.jpeg)) }
            let second = try await h.run {
                try await album.save(.data(Data(contentsOf: PhotoKitHarness.heic), filename: "sky.heic"))
            }
            #expect(second.albumOutcome == .found)
            #expect(second.albumID == first.albumID)
            #expect(h.simulation.albums.count == 1)
            #expect(h.simulation.album(withLocalIdentifier: first.albumID!)?.assetLocalIdentifiers.count == 2)
        }

        @Test func albumDeletedByTheUserIsRecreated() async throws {
            let h = PhotoKitHarness()
            let album = h.library.album(titled: "Trips")
            let first = try await h.run { try await album.save(.file(PhotoKitHarness.jpeg)) }
            #expect(h.simulation.userDeletesAlbum(withLocalIdentifier: first.albumID!))
            let second = try await h.run { try await album.save(.file(PhotoKitHarness.jpeg)) }
            #expect(second.albumOutcome == .recreated)
            #expect(h.simulation.albums.map(\.localIdentifier) == [second.albumID!])
        }

        @Test func albumRenamedByTheUserIsStillTheAlbum() async throws {
            let h = PhotoKitHarness()
            let album = h.library.album(titled: "Trips")
            let first = try await h.run { try await album.save(.file(PhotoKitHarness.jpeg)) }
            #expect(h.simulation.userRenamesAlbum(withLocalIdentifier: first.albumID!, to: "Holidays"))
            h.simulation.userCreatesAlbum(titled: "Trips")  // a later album with the old title
            let second = try await h.run { try await album.save(.file(PhotoKitHarness.jpeg)) }
            #expect(second.albumID == first.albumID)
            #expect(second.albumOutcome == .found)
        }

        @Test func titleMatchingUsesNFC() async throws {
            let h = PhotoKitHarness()
            let decomposed = h.simulation.userCreatesAlbum(titled: "Cafe\u{301}")
            let saved = try await h.run {
                try await h.library.album(titled: "Caf\u{E9}").save(.file(PhotoKitHarness.jpeg))
            }
            #expect(saved.albumID == decomposed)
        }

        // MARK: Race windows

        @Test func albumDeletedBetweenLookupAndCommitIsRecreatedAndNothingIsHalfSaved() async throws {
            let h = PhotoKitHarness()
            let existing = h.simulation.userCreatesAlbum(titled: "Trips")
            // The user deletes the album after the app's change block returned, before Photos commits it.
            h.simulation.beforeNextCommit { simulation in _ = simulation.userDeletesAlbum(withLocalIdentifier: existing)
            }
            let saved = try await h.run { try await h.library.album(titled: "Trips").save(.file(PhotoKitHarness.jpeg)) }
            #expect(saved.albumOutcome == .recreated)
            #expect(saved.albumID != existing)
            #expect(h.simulation.failedChangeBlockCount == 1)
            #expect(h.simulation.assets.count == 1)  // the failed block saved nothing
            #expect(h.simulation.albums.map(\.assetLocalIdentifiers) == [[saved.assetID]])
        }

        @Test func albumRenamedBetweenLookupAndCommitIsStillUsed() async throws {
            let h = PhotoKitHarness()
            let existing = h.simulation.userCreatesAlbum(titled: "Trips")
            h.simulation.beforeNextCommit { simulation in
                _ = simulation.userRenamesAlbum(withLocalIdentifier: existing, to: "Holidays")
            }
            let saved = try await h.run { try await h.library.album(titled: "Trips").save(.file(PhotoKitHarness.jpeg)) }
            #expect(saved.albumID == existing)
            #expect(h.simulation.album(withLocalIdentifier: existing)?.assetLocalIdentifiers == [saved.assetID])
        }

        @Test func fiftyConcurrentSavesIntoANewAlbumMakeOneAlbum() async throws {
            let h = PhotoKitHarness()
            let album = h.library.album(titled: "Race")
            let bytes = try Data(contentsOf: PhotoKitHarness.jpeg)
            let results = await h.run {
                await withTaskGroup(of: Result<SavedAsset, AlbumError>.self) { group in
                    for i in 0..<50 { group.addTask { await album.save([.data(bytes, filename: "IMG_\(i).JPG")])[0] } }
                    return await group.reduce(into: []) { $0.append($1) }
                }
            }
            #expect(results.allSatisfy { (try? $0.get()) != nil })
            #expect(h.simulation.albums.count == 1)
            #expect(h.simulation.albums.first?.assetLocalIdentifiers.count == 50)
            #expect(results.filter { (try? $0.get())?.albumOutcome == .created }.count == 1)
        }

        // MARK: Access levels

        @Test func notDeterminedAsksForReadWriteOnceThenSaves() async throws {
            let h = PhotoKitHarness()
            _ = try await h.run { try await h.library.album(titled: "A").save(.file(PhotoKitHarness.jpeg)) }
            _ = try await h.run { try await h.library.album(titled: "A").save(.file(PhotoKitHarness.jpeg)) }
            #expect(h.simulation.authorizationPrompts == [.readWrite])
        }

        @Test func libraryOnlySaveAsksForAddOnly() async throws {
            let h = PhotoKitHarness()
            let saved = try await h.run { try await h.library.save(.file(PhotoKitHarness.jpeg)) }
            #expect(saved.albumID == nil)
            #expect(h.simulation.authorizationPrompts == [.addOnly])
            #expect(h.simulation.albums.isEmpty)
        }

        @Test(arguments: [PHAuthorizationStatus.denied, .restricted])
        func deniedOrRestrictedFailsBeforeAnyChangeBlock(status: PHAuthorizationStatus) async throws {
            let h = PhotoKitHarness(answering: status)
            let result = await h.run { await h.library.album(titled: "A").save([.file(PhotoKitHarness.jpeg)])[0] }
            #expect(result.error?.code == .accessDenied)
            #expect(h.simulation.changeBlockCount == 0)
            let libraryOnly = await h.run { await h.library.save([.file(PhotoKitHarness.jpeg)])[0] }
            #expect(libraryOnly.error?.code == .accessDenied)
            #expect(h.simulation.assets.isEmpty)
        }

        @Test func addOnlyFailsByDefaultAndSkipsTheAlbumWhenAllowed() async throws {
            // The user granted add-only access earlier and declines read-write when asked.
            let h = PhotoKitHarness()
            h.simulation.setAuthorizationStatus(.authorized, for: .addOnly)
            h.simulation.setAuthorizationAnswer(.denied, for: .readWrite)
            // Default policy: nothing is saved.
            let strict = await h.run { await h.library.album(titled: "A").save([.file(PhotoKitHarness.jpeg)])[0] }
            #expect(strict.error?.code == .accessDenied)
            #expect(h.simulation.assets.isEmpty)
            // Opt-in policy: saved to the library, the album skipped.
            let lenient = h.library.album(titled: "A", accessPolicy: .saveToLibraryWhenAlbumUnavailable)
            let saved = try await h.run { try await lenient.save(.file(PhotoKitHarness.jpeg)) }
            guard case .skipped = saved.albumOutcome else {
                Issue.record("expected .skipped, got \(String(describing: saved.albumOutcome))")
                return
            }
            #expect(saved.albumID == nil)
            #expect(h.simulation.assets.count == 1)
            #expect(h.simulation.albums.isEmpty)
        }

        @Test func fullAccessAlreadyGrantedDoesNotPrompt() async throws {
            let h = PhotoKitHarness()
            h.simulation.setAuthorizationStatus(.authorized, for: .readWrite)
            _ = try await h.run { try await h.library.album(titled: "A").save(.file(PhotoKitHarness.jpeg)) }
            #expect(h.simulation.authorizationPromptCount == 0)
        }

        // MARK: Commit failures

        @Test(arguments: [
            (PHPhotosError.Code.notEnoughSpace, AlbumError.Code.notEnoughSpace),
            (.accessUserDenied, .accessDenied),
            (.accessRestricted, .accessDenied),
            (.invalidResource, .corruptMedia),
            (.missingResource, .fileNotFound),
            (.libraryVolumeOffline, .libraryNotFound),
            (.changeNotSupported, .unsupportedMedia),
            (.userCancelled, .cancelled),
            (.operationInterrupted, .ioFailure),
            (.internalError, .ioFailure),
        ])
        func commitFailureMapsToAnAlbumErrorSavesNothingAndCompletesOnce(
            code: PHPhotosError.Code, expected: AlbumError.Code
        ) async throws {
            let h = PhotoKitHarness()
            h.simulation.failNextCommit(with: code)
            let calls = Box<[Result<SavedAsset, AlbumError>]>([])
            let queue = DispatchQueue(label: "completion")
            await h.run {
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    h.library.save(.file(PhotoKitHarness.jpeg), toAlbum: "Trips", queue: queue) { result in
                        calls.update { $0.append(result) }
                        done.resume()
                    }
                }
            }
            try await Task.sleep(for: .milliseconds(50))
            #expect(calls.value.count == 1)
            let error = try #require(calls.value.first?.error)
            #expect(error.code == expected)
            #expect(error.underlying is PHPhotosError)
            #expect(h.simulation.assets.isEmpty)
            #expect(h.simulation.albums.isEmpty)
        }

        // MARK: Media kinds

        @Test func videoIsSavedAsAVideoResource() async throws {
            let h = PhotoKitHarness()
            let saved = try await h.run {
                try await h.library.album(titled: "Clips").save(.file(PhotoKitHarness.video))
            }
            let asset = try #require(h.simulation.asset(withLocalIdentifier: saved.assetID))
            #expect(asset.mediaType == .video)
            #expect(asset.resources.map(\.type) == [.video])
            #expect(saved.metadata?.kind == .video)
        }

        @Test func livePhotoCarriesPhotoAndPairedVideo() async throws {
            let h = PhotoKitHarness()
            let saved = try await h.run {
                try await h.library.album(titled: "Live").save(
                    .livePhoto(photo: PhotoKitHarness.heic, pairedVideo: PhotoKitHarness.video))
            }
            let asset = try #require(h.simulation.asset(withLocalIdentifier: saved.assetID))
            #expect(asset.resources.map(\.type) == [.photo, .pairedVideo])
            #expect(asset.mediaSubtypes.contains(.photoLive))
            #expect(asset.resources.map(\.originalFilename) == ["sky.heic", "clip.mp4"])
        }

        @Test func notMediaIsRefusedBeforeAnyChangeBlock() async throws {
            let h = PhotoKitHarness()
            let result = await h.run {
                await h.library.album(titled: "A").save([.data(Data("hello".utf8), filename: "note.jpg")])[0]
            }
            #expect(result.error?.code == .notMedia)
            #expect(h.simulation.changeBlockCount == 0)
        }

        // MARK: Managing albums

        @Test func listCreateRenameDelete() async throws {
            let h = PhotoKitHarness()
            h.simulation.setAuthorizationStatus(.authorized, for: .readWrite)
            try await h.run {
                let created = try await h.library.createAlbum(titled: "Empty")
                #expect(try await h.library.albums().map(\.title) == ["Empty"])
                try await h.library.renameAlbum(titled: "Empty", to: "Renamed")
                #expect(h.simulation.album(withLocalIdentifier: created.id)?.title == "Renamed")
                try await h.library.deleteAlbum(titled: "Renamed")
                #expect(h.simulation.albums.isEmpty)
            }
        }
    }

    @Suite struct PhotoKitUndocumentedBehaviourTests {
        /// If Photos committed the assets but dropped the membership because the album vanished during
        /// the commit (`staleReferencePolicy = .ignore`), the assets still end up in an album.
        @Test func albumDeletedDuringCommitWhenPhotosKeepsTheAssets() async throws {
            let h = PhotoKitHarness()
            h.simulation.staleReferencePolicy = .ignore
            let existing = h.simulation.userCreatesAlbum(titled: "Trips")
            h.simulation.beforeNextCommit { simulation in _ = simulation.userDeletesAlbum(withLocalIdentifier: existing)
            }
            let saved = try await h.run { try await h.library.album(titled: "Trips").save(.file(PhotoKitHarness.jpeg)) }
            #expect(saved.albumOutcome == .recreated)
            #expect(h.simulation.assets.count == 1)
            #expect(h.simulation.albums.map(\.assetLocalIdentifiers) == [[saved.assetID]])
            #expect(h.simulation.albums.first?.localIdentifier == saved.albumID)
        }
    }

    @Suite struct AlbumIdentifierStoreTests {
        @Test func userDefaultsStoreRemembersPerSuite() {
            let suite = "AlbumKitTests.\(UUID().uuidString)"
            let store = UserDefaultsAlbumStore(suiteName: suite)
            #expect(store.albumIdentifier(forTitleKey: "Trips") == nil)
            store.remember("ABC/L0/040", forTitleKey: "Trips")
            #expect(UserDefaultsAlbumStore(suiteName: suite).albumIdentifier(forTitleKey: "Trips") == "ABC/L0/040")
            #expect(UserDefaultsAlbumStore(suiteName: suite + ".other").albumIdentifier(forTitleKey: "Trips") == nil)
            UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite)
        }
    }
#endif
