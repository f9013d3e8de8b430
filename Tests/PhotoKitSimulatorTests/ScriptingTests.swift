#if !canImport(ObjectiveC)
    import Foundation
    import PhotoKitSimulator
    import Testing

    /// The test controls: scripted user actions, race windows, injected failures, delays,
    /// counters, reset, and per-test isolation.
    @Suite("Scripting")
    struct ScriptingTests {
        /// A block that adds a new asset to the album fetched as `album`.
        static func addNewAsset(to album: PHAssetCollection) -> () -> Void {
            {
                let asset = PHAssetCreationRequest.forAsset()
                asset.addResource(with: .photo, data: jpegBytes, options: nil)
                PHAssetCollectionChangeRequest(for: album)?.addAssets([asset.placeholderForCreatedAsset!] as NSArray)
            }
        }

        @Test func userDeletesAlbumNow() {
            let simulation = authorizedSimulation()
            let id = simulation.userCreatesAlbum(titled: "Gone")
            #expect(simulation.userDeletesAlbum(withLocalIdentifier: id))
            #expect(!simulation.userDeletesAlbum(withLocalIdentifier: id))
            simulation.run {
                #expect(PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [id], options: nil).count == 0)
            }
        }

        @Test func albumDeletedBetweenFetchAndChangeBlock() async throws {
            let simulation = authorizedSimulation()
            let id = simulation.userCreatesAlbum(titled: "Gone")
            let album = try #require(
                simulation.run {
                    PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [id], options: nil).firstObject
                })
            simulation.beforeChangeBlock(1) { $0.userDeletesAlbum(withLocalIdentifier: id) }
            let requestWasNil = Recorder<Bool>()
            let completion = await simulation.run {
                await simulation.perform {
                    requestWasNil.append(PHAssetCollectionChangeRequest(for: album) == nil)
                }
            }
            #expect(requestWasNil.values == [true])
            #expect(completion.success)
            #expect(simulation.albums.isEmpty)
        }

        @Test func albumDeletedBeforeCommitFailsTheWholeBlock() async throws {
            let simulation = authorizedSimulation()
            let id = simulation.userCreatesAlbum(titled: "Gone")
            let album = try #require(
                simulation.run {
                    PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [id], options: nil).firstObject
                })
            simulation.beforeCommit(ofChangeBlock: 1) { $0.userDeletesAlbum(withLocalIdentifier: id) }
            let completion = await simulation.run { await simulation.perform(Self.addNewAsset(to: album)) }
            #expect(completion.code == .identifierNotFound)
            #expect(completion.nsError?.code == 3201)
            let ids = completion.nsError?.userInfo[PHLocalIdentifiersErrorKey] as? [String]
            #expect(ids == [id])
            #expect(simulation.assets.isEmpty)
        }

        @Test func ignorePolicyCommitsTheRest() async throws {
            let simulation = authorizedSimulation()
            simulation.staleReferencePolicy = .ignore
            let id = simulation.userCreatesAlbum(titled: "Gone")
            let album = try #require(
                simulation.run {
                    PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [id], options: nil).firstObject
                })
            simulation.beforeNextCommit { $0.userDeletesAlbum(withLocalIdentifier: id) }
            let completion = await simulation.run { await simulation.perform(Self.addNewAsset(to: album)) }
            #expect(completion.success)
            #expect(simulation.assets.count == 1)
            #expect(simulation.albums.isEmpty)
        }

        @Test func customStaleReferenceCode() async throws {
            let simulation = authorizedSimulation()
            simulation.staleReferencePolicy = .fail(.changeNotSupported)
            let id = simulation.userCreatesAlbum(titled: "Gone")
            let album = try #require(
                simulation.run {
                    PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [id], options: nil).firstObject
                })
            simulation.beforeNextCommit { $0.userDeletesAlbum(withLocalIdentifier: id) }
            let completion = await simulation.run { await simulation.perform(Self.addNewAsset(to: album)) }
            #expect(completion.code == .changeNotSupported)
        }

        @Test func albumDeletedBetweenTwoChangeBlocks() async throws {
            let simulation = authorizedSimulation()
            let created = Recorder<String>()
            let first = await simulation.run {
                await simulation.perform {
                    created.append(
                        PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Trips")
                            .placeholderForCreatedAssetCollection.localIdentifier)
                }
            }
            #expect(first.success)
            let id = try #require(created.values.first)
            simulation.beforeChangeBlock(2) { $0.userDeletesAlbum(withLocalIdentifier: id) }
            let fetchedInSecond = Recorder<Int>()
            _ = await simulation.run {
                await simulation.perform {
                    fetchedInSecond.append(
                        PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [id], options: nil).count)
                }
            }
            #expect(fetchedInSecond.values == [0])
        }

        @Test func userRenamesAlbumBeforeCommitAndAppRenameWins() async throws {
            let simulation = authorizedSimulation()
            let id = simulation.userCreatesAlbum(titled: "Original")
            let album = try #require(
                simulation.run {
                    PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [id], options: nil).firstObject
                })
            simulation.beforeNextCommit { $0.userRenamesAlbum(withLocalIdentifier: id, to: "User's name") }
            _ = await simulation.run {
                await simulation.perform { PHAssetCollectionChangeRequest(for: album)?.title = "App's name" }
            }
            #expect(simulation.album(withLocalIdentifier: id)?.title == "App's name")

            simulation.beforeNextCommit { $0.userRenamesAlbum(withLocalIdentifier: id, to: "Renamed again") }
            let completion = await simulation.run { await simulation.perform(Self.addNewAsset(to: album)) }
            #expect(completion.success)
            #expect(simulation.album(withLocalIdentifier: id)?.title == "Renamed again")
            #expect(simulation.album(withLocalIdentifier: id)?.assetLocalIdentifiers.count == 1)
            #expect(!simulation.userRenamesAlbum(withLocalIdentifier: "missing", to: "x"))
        }

        @Test(arguments: [
            PHPhotosError.Code.notEnoughSpace, .accessUserDenied, .invalidResource, .libraryVolumeOffline,
            .internalError, .operationInterrupted, .accessRestricted, .userCancelled,
        ])
        func scriptedCommitFailure(code: PHPhotosError.Code) async {
            let simulation = authorizedSimulation()
            simulation.failNextCommit(with: code)
            let failed = await simulation.run { await simulation.perform(AuthorizationTests.saveToNewAlbum) }
            #expect(!failed.success)
            #expect(failed.code == code)
            #expect(failed.nsError?.code == code.rawValue)
            #expect(failed.nsError?.domain == "PHPhotosErrorDomain")
            #expect(simulation.albums.isEmpty)
            #expect(simulation.assets.isEmpty)

            let next = await simulation.run { await simulation.perform(AuthorizationTests.saveToNewAlbum) }
            #expect(next.success)
            #expect(simulation.albums.count == 1)
        }

        @Test func scriptedFailureOfTheNthBlock() async {
            let simulation = authorizedSimulation()
            simulation.failCommit(ofChangeBlock: 2, with: .libraryVolumeOffline)
            var codes: [PHPhotosError.Code?] = []
            for _ in 0..<3 {
                let completion = await simulation.run { await simulation.perform(AuthorizationTests.saveAssetOnly) }
                codes.append(completion.code)
            }
            #expect(codes == [nil, .libraryVolumeOffline, nil])
            #expect(simulation.assets.count == 2)
            #expect(simulation.changeBlockCount == 3)
            #expect(simulation.committedChangeBlockCount == 2)
            #expect(simulation.failedChangeBlockCount == 1)
        }

        @Test func consecutiveScriptedFailures() async {
            let simulation = authorizedSimulation()
            simulation.failNextCommit(with: .notEnoughSpace)
            simulation.failNextCommit(with: .operationInterrupted)
            var codes: [PHPhotosError.Code?] = []
            for _ in 0..<3 {
                codes.append(await simulation.run { await simulation.perform(AuthorizationTests.saveAssetOnly) }.code)
            }
            #expect(codes == [.notEnoughSpace, .operationInterrupted, nil])
        }

        @Test func commitDelayOpensARaceWindowWithoutExposingHalfCommits() async throws {
            // What the library holds between the change block and its commit is read by a hook
            // that runs there (before the delay), not by polling from another task: a loaded
            // machine can stall a poller past any delay, which made the old form of this test fail.
            let delay = Duration.milliseconds(300)
            let simulation = authorizedSimulation()
            simulation.commitDelay = delay
            #expect(simulation.commitDelay == delay)
            let seen = Recorder<(albums: Int, assets: Int, blocks: Int, at: ContinuousClock.Instant)>()
            simulation.beforeNextCommit { simulation in
                seen.append(
                    (simulation.albums.count, simulation.assets.count, simulation.changeBlockCount, ContinuousClock.now)
                )
            }
            let completion = await simulation.run { await simulation.perform(AuthorizationTests.saveToNewAlbum) }
            let finished = ContinuousClock.now
            #expect(completion.success)
            let window = try #require(seen.values.first)
            #expect(seen.values.count == 1)
            // Inside the window the block has run, and nothing of it is visible yet.
            #expect(window.blocks == 1 && window.albums == 0 && window.assets == 0)
            // The window lasts at least the delay: the commit comes after it.
            #expect(finished - window.at >= delay)
            #expect(simulation.albums.count == 1)
            #expect(simulation.assets.count == 1)
        }

        @Test func concurrentBlocksEachCreateTheirOwnAlbum() async {
            let simulation = authorizedSimulation()
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<50 {
                    group.addTask {
                        _ = await simulation.run { await simulation.perform(AuthorizationTests.saveToNewAlbum) }
                    }
                }
            }
            // The simulator does not de-duplicate titles: that is the app's job.
            #expect(simulation.albums(titled: "Album").count == 50)
            #expect(simulation.changeBlockCount == 50)
        }

        @Test func resetEmptiesEverything() async {
            let simulation = authorizedSimulation()
            simulation.userCreatesAlbum(titled: "A")
            simulation.failNextCommit(with: .notEnoughSpace)
            _ = await simulation.run { await simulation.perform {} }
            _ = await simulation.run { await PHPhotoLibrary.requestAuthorization(for: .addOnly) }
            simulation.reset()
            #expect(simulation.albums.isEmpty)
            #expect(simulation.changeBlockCount == 0)
            #expect(simulation.authorizationPromptCount == 0)
            simulation.run {
                #expect(PHPhotoLibrary.authorizationStatus(for: .readWrite) == .notDetermined)
            }
            #expect(simulation.staleReferencePolicy == .fail(.identifierNotFound))
        }

        @Test func parallelSimulationsAreIsolated() async {
            let simulations = (0..<8).map { _ in authorizedSimulation() }
            await withTaskGroup(of: Void.self) { group in
                for (index, simulation) in simulations.enumerated() {
                    group.addTask {
                        await simulation.run {
                            try? await PHPhotoLibrary.shared().performChanges {
                                PHAssetCollectionChangeRequest.creationRequestForAssetCollection(
                                    withTitle: "Library \(index)")
                            }
                        }
                    }
                }
            }
            for (index, simulation) in simulations.enumerated() {
                #expect(simulation.albums.map(\.title) == ["Library \(index)"])
            }
        }

        @Test func hooksSeeTheirOwnLibraryAsCurrent() async {
            let simulation = authorizedSimulation()
            let sameLibrary = Recorder<Bool>()
            simulation.beforeNextCommit { hookSimulation in
                sameLibrary.append(
                    PHPhotoLibrary.shared() === simulation.library && hookSimulation.library === simulation.library)
            }
            _ = await simulation.perform {}
            #expect(sameLibrary.values == [true])
        }

        @Test func waitUntilIdleDrainsQueuedBlocks() async {
            let simulation = authorizedSimulation()
            let handled = Recorder<Bool>()
            simulation.run {
                for _ in 0..<5 {
                    PHPhotoLibrary.shared().performChanges({}) { success, _ in handled.append(success) }
                }
            }
            await simulation.waitUntilIdle()
            #expect(handled.values == Array(repeating: true, count: 5))
        }

        @Test func seededUserAssetsAndMembership() {
            let simulation = authorizedSimulation()
            let resource = SimulatedResource(type: .photo, originalFilename: "a.jpg", data: jpegBytes)
            let asset = simulation.userAddsAsset(resources: [resource])
            let album = simulation.userCreatesAlbum(titled: "A")
            #expect(simulation.userAddsAsset(withLocalIdentifier: asset, toAlbumWithLocalIdentifier: album))
            #expect(!simulation.userAddsAsset(withLocalIdentifier: "missing", toAlbumWithLocalIdentifier: album))
            #expect(simulation.album(withLocalIdentifier: album)?.assetLocalIdentifiers == [asset])
            #expect(simulation.asset(withLocalIdentifier: asset)?.isCreatedByApp == false)
            #expect(simulation.userDeletesAsset(withLocalIdentifier: asset))
            #expect(simulation.album(withLocalIdentifier: album)?.assetLocalIdentifiers == [])
        }
    }
#endif
