#if !canImport(ObjectiveC)
    import Foundation
    import PhotoKitSimulator
    import Synchronization
    import Testing

    /// Change observation as Photos documents it: observers told after every committed change and
    /// user action, on a serial queue; change details relative to the app's own fetch results; and
    /// asset resources with their original names.
    @Suite struct ChangeObservationTests {
        /// Records what each change says about a fetch result of every asset and of the albums.
        final class Observer: NSObject, PHPhotoLibraryChangeObserver, Sendable {
            struct Seen: Sendable {
                var inserted: [String] = []
                var removed: [String] = []
                var changed: [String] = []
                var changedAlbums: [String] = []
                var onMainThread = false
            }
            // Fetch results are replaced by each change's "after" result (as an app must).
            private struct Fetches: @unchecked Sendable {
                var assets: PHFetchResult<PHAsset>
                var albums: PHFetchResult<PHAssetCollection>
            }
            private let fetches: Mutex<Fetches>
            let seen = Mutex<[Seen]>([])

            override init() {
                fetches = Mutex(
                    Fetches(
                        assets: PHAsset.fetchAssets(with: nil),
                        albums: PHAssetCollection.fetchAssetCollections(
                            with: .album, subtype: .albumRegular, options: nil)
                    ))
            }

            func photoLibraryDidChange(_ changeInstance: PHChange) {
                var seen = Seen(onMainThread: Thread.isMainThread)
                fetches.withLock { fetches in
                    if let details = changeInstance.changeDetails(for: fetches.assets) {
                        seen.inserted = details.insertedObjects.map(\.localIdentifier)
                        seen.removed = details.removedObjects.map(\.localIdentifier)
                        seen.changed = details.changedObjects.map(\.localIdentifier)
                        #expect(details.hasIncrementalChanges)
                        #expect(details.removedIndexes?.count == details.removedObjects.count)
                        fetches.assets = details.fetchResultAfterChanges
                    }
                    if let details = changeInstance.changeDetails(for: fetches.albums) {
                        seen.changedAlbums = details.changedObjects.map(\.localIdentifier)
                        fetches.albums = details.fetchResultAfterChanges
                    }
                }
                let record = seen
                self.seen.withLock { $0.append(record) }
            }

            func waitForChanges(_ count: Int) async throws -> [Seen] {
                for _ in 0..<500 where seen.withLock({ $0.count }) < count {
                    try await Task.sleep(for: .milliseconds(2))
                }
                return seen.withLock { $0 }
            }
        }

        @Test func observersHearCommitsAndUserActionsWithDetailsOfTheirFetches() async throws {
            let simulation = PhotoKitSimulation()
            simulation.setAuthorizationStatus(.authorized, for: .readWrite)
            let existing = simulation.userAddsAsset()
            let album = simulation.userCreatesAlbum(titled: "Trips", assetLocalIdentifiers: [existing])
            try await simulation.run {
                let observer = Observer()
                PHPhotoLibrary.shared().register(observer)
                let created = Mutex<String?>(nil)
                try await PHPhotoLibrary.shared().performChanges {
                    let request = PHAssetCreationRequest.forAsset()
                    request.addResource(with: .photo, data: Data([0xFF, 0xD8, 0xFF]), options: nil)
                    let id = request.placeholderForCreatedAsset?.localIdentifier
                    created.withLock { $0 = id }
                }
                let id = try #require(created.withLock { $0 })
                var seen = try await observer.waitForChanges(1)
                #expect(seen.map(\.inserted) == [[id]])
                #expect(seen.first?.onMainThread == false)

                // An edit changes the asset; the user's rename changes the album.
                let asset = try #require(
                    PHAsset.fetchAssets(withLocalIdentifiers: [existing], options: nil).firstObject)
                try await PHPhotoLibrary.shared().performChanges { PHAssetChangeRequest(for: asset).isFavorite = true }
                #expect(simulation.userRenamesAlbum(withLocalIdentifier: album, to: "Holidays"))
                #expect(simulation.userDeletesAsset(withLocalIdentifier: id))
                seen = try await observer.waitForChanges(4)
                #expect(seen.count == 4)
                #expect(seen[1].changed == [existing])
                #expect(seen[2].changedAlbums == [album])
                #expect(seen[3].removed == [id])
                PHPhotoLibrary.shared().unregisterChangeObserver(observer)
                simulation.userCreatesAlbum(titled: "After")
                await simulation.waitUntilIdle()
                try await Task.sleep(for: .milliseconds(20))
                #expect(observer.seen.withLock { $0.count } == 4, "an unregistered observer hears nothing")
            }
        }

        @Test func observersAreNotKeptAlive() async throws {
            let simulation = PhotoKitSimulation()
            simulation.setAuthorizationStatus(.authorized, for: .readWrite)
            simulation.run {
                var observer: Observer? = Observer()
                PHPhotoLibrary.shared().register(observer!)
                #expect(simulation.registeredChangeObserverCount == 1)
                observer = nil
                #expect(simulation.registeredChangeObserverCount == 0)
            }
        }

        @Test func changeDetailsAreNilWhenTheFetchDidNotChange() async throws {
            let simulation = PhotoKitSimulation()
            simulation.setAuthorizationStatus(.authorized, for: .readWrite)
            let album = simulation.userCreatesAlbum(titled: "Trips")
            try await simulation.run {
                let collection = try #require(
                    PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [album], options: nil).firstObject)
                final class Members: NSObject, PHPhotoLibraryChangeObserver, Sendable {
                    let result: Mutex<[Bool]> = Mutex([])
                    // @unchecked: read only inside the observer's serial callbacks.
                    struct Fetch: @unchecked Sendable { let members: PHFetchResult<PHAsset> }
                    let fetch: Fetch
                    init(_ members: PHFetchResult<PHAsset>) { fetch = Fetch(members: members) }
                    func photoLibraryDidChange(_ changeInstance: PHChange) {
                        let changed = changeInstance.changeDetails(for: fetch.members) != nil
                        result.withLock { $0.append(changed) }
                    }
                }
                let observer = Members(PHAsset.fetchAssets(in: collection, options: nil))
                PHPhotoLibrary.shared().register(observer)
                simulation.userAddsAsset()  // not in the album
                let inAlbum = simulation.userAddsAsset()
                simulation.userAddsAsset(withLocalIdentifier: inAlbum, toAlbumWithLocalIdentifier: album)
                for _ in 0..<500 where observer.result.withLock({ $0.count }) < 3 {
                    try await Task.sleep(for: .milliseconds(2))
                }
                #expect(observer.result.withLock { $0 } == [false, false, true])
                withExtendedLifetime(observer) {}
            }
        }

        @Test func assetResourcesCarryTheirOriginalNamesAndTypes() async throws {
            let simulation = PhotoKitSimulation()
            simulation.setAuthorizationStatus(.authorized, for: .readWrite)
            let id = simulation.userAddsAsset(resources: [
                SimulatedResource(
                    type: .photo, originalFilename: "IMG_0001.HEIC", uniformTypeIdentifier: "public.heic",
                    data: Data([1])),
                SimulatedResource(type: .pairedVideo, originalFilename: "IMG_0001.MOV", data: Data([2])),
            ])
            let asset = try simulation.run {
                try #require(PHAsset.fetchAssets(withLocalIdentifiers: [id], options: nil).firstObject)
            }
            simulation.run {
                let resources = PHAssetResource.assetResources(for: asset)
                #expect(resources.map(\.originalFilename) == ["IMG_0001.HEIC", "IMG_0001.MOV"])
                #expect(resources.map(\.type) == [.photo, .pairedVideo])
                #expect(resources.allSatisfy { $0.assetLocalIdentifier == id })
                #expect(resources.map(\.uniformTypeIdentifier) == ["public.heic", "public.data"])
            }
            simulation.setAuthorizationStatus(.denied, for: .readWrite)
            #expect(simulation.run { PHAssetResource.assetResources(for: asset) }.isEmpty, "no access, no resources")
        }
    }
#endif
