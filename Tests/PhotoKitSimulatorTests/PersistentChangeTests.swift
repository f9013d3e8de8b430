#if !canImport(ObjectiveC)
    import Foundation
    import PhotoKitSimulator
    import Synchronization
    import Testing

    /// Photos' persistent change history (iOS 16): a token kept across launches, the changes since
    /// it by object type, an expired token; and change details too large to describe.
    @Suite struct PersistentChangeTests {
        /// The inserted, updated and deleted identifiers of `type` over every change since `token`.
        static func collected(
            since token: PHPersistentChangeToken, _ type: PHObjectType
        ) throws -> (inserted: Set<String>, updated: Set<String>, deleted: Set<String>) {
            var result: (inserted: Set<String>, updated: Set<String>, deleted: Set<String>) = ([], [], [])
            for change in try PHPhotoLibrary.shared().fetchPersistentChanges(since: token) {
                let details = try change.changeDetails(for: type)
                #expect(details.objectType == type)
                result.inserted.formUnion(details.insertedLocalIdentifiers)
                result.updated.formUnion(details.updatedLocalIdentifiers)
                result.deleted.formUnion(details.deletedLocalIdentifiers)
            }
            return result
        }

        @Test func theHistorySinceATokenNamesWhatWasInsertedUpdatedAndDeleted() throws {
            let simulation = PhotoKitSimulation()
            simulation.setAuthorizationStatus(.authorized, for: .readWrite)
            let kept = simulation.userAddsAsset()
            let album = simulation.userCreatesAlbum(titled: "Trips", assetLocalIdentifiers: [kept])
            try simulation.run {
                // The token survives an archive, as an app keeps it between launches.
                let archived = try NSKeyedArchiver.archivedData(
                    withRootObject: PHPhotoLibrary.shared().currentChangeToken, requiringSecureCoding: true)
                let token = try #require(
                    try NSKeyedUnarchiver.unarchivedObject(ofClass: PHPersistentChangeToken.self, from: archived))
                #expect(token == PHPhotoLibrary.shared().currentChangeToken)
                #expect(Array(try PHPhotoLibrary.shared().fetchPersistentChanges(since: token)).isEmpty)

                let added = simulation.userAddsAsset()
                #expect(simulation.userEditsAsset(withLocalIdentifier: kept))
                #expect(simulation.userDeletesAlbum(withLocalIdentifier: album))
                let assets = try Self.collected(since: token, .asset)
                #expect(assets.inserted == [added] && assets.updated == [kept] && assets.deleted.isEmpty)
                let albums = try Self.collected(since: token, .assetCollection)
                #expect(albums.deleted == [album] && albums.inserted.isEmpty)
                #expect(try Self.collected(since: token, .collectionList).inserted.isEmpty)

                // Each change carries the token right after it: asking from there gives the rest.
                let changes = Array(try PHPhotoLibrary.shared().fetchPersistentChanges(since: token))
                #expect(changes.count == 3)
                let rest = try Self.collected(since: changes[0].changeToken, .asset)
                #expect(rest.inserted.isEmpty && rest.updated == [kept])
                #expect(changes.last?.changeToken == PHPhotoLibrary.shared().currentChangeToken)
            }
        }

        @Test func aTokenOlderThanTheHistoryKeptHasExpired() throws {
            let simulation = PhotoKitSimulation()
            simulation.setAuthorizationStatus(.authorized, for: .readWrite)
            try simulation.run {
                let old = PHPhotoLibrary.shared().currentChangeToken
                simulation.userAddsAsset()
                simulation.forgetPersistentChangeHistory()
                #expect(throws: PHPhotosError.self) { try PHPhotoLibrary.shared().fetchPersistentChanges(since: old) }
                do {
                    _ = try PHPhotoLibrary.shared().fetchPersistentChanges(since: old)
                } catch let error as PHPhotosError {
                    #expect(error.code == .persistentChangeTokenExpired)
                }
                // A token made after the history was forgotten still works.
                let now = PHPhotoLibrary.shared().currentChangeToken
                let added = simulation.userAddsAsset()
                #expect(try Self.collected(since: now, .asset).inserted == [added])
            }
            // Another library's token is no position in this one.
            let other = PhotoKitSimulation()
            other.setAuthorizationStatus(.authorized, for: .readWrite)
            let foreign = simulation.run { PHPhotoLibrary.shared().currentChangeToken }
            _ = other.run {
                #expect(throws: PHPhotosError.self) {
                    try PHPhotoLibrary.shared().fetchPersistentChanges(since: foreign)
                }
            }
        }

        @Test func theHistoryNeedsReadAccess() throws {
            let simulation = PhotoKitSimulation()
            simulation.setAuthorizationStatus(.denied, for: .readWrite)
            simulation.run {
                let token = PHPhotoLibrary.shared().currentChangeToken
                #expect(throws: PHPhotosError.self) { try PHPhotoLibrary.shared().fetchPersistentChanges(since: token) }
            }
        }

        @Test func changeDetailsTooLargeToDescribeAreNotIncremental() async throws {
            let simulation = PhotoKitSimulation()
            simulation.setAuthorizationStatus(.authorized, for: .readWrite)
            simulation.incrementalChangeLimit = 1
            try await simulation.run {
                final class Observer: NSObject, PHPhotoLibraryChangeObserver, Sendable {
                    // @unchecked: read only inside the observer's serial callbacks.
                    struct Fetch: @unchecked Sendable { let assets: PHFetchResult<PHAsset> }
                    let fetch = Fetch(assets: PHAsset.fetchAssets(with: nil))
                    let seen = Mutex<[(incremental: Bool, removed: IndexSet?, after: Int, moves: Int)]>([])
                    func photoLibraryDidChange(_ changeInstance: PHChange) {
                        guard let details = changeInstance.changeDetails(for: fetch.assets) else { return }
                        var moves = 0
                        details.enumerateMoves { _, _ in moves += 1 }
                        let record = (
                            details.hasIncrementalChanges, details.removedIndexes,
                            details.fetchResultAfterChanges.count, moves
                        )
                        seen.withLock { $0.append(record) }
                    }
                }
                let observer = Observer()
                PHPhotoLibrary.shared().register(observer)
                try await PHPhotoLibrary.shared().performChanges {
                    for _ in 0..<2 {
                        PHAssetCreationRequest.forAsset().addResource(
                            with: .photo, data: Data([0xFF, 0xD8, 0xFF]), options: nil)
                    }
                }
                for _ in 0..<500 where observer.seen.withLock({ $0.isEmpty }) {
                    try await Task.sleep(for: .milliseconds(2))
                }
                let seen = try #require(observer.seen.withLock { $0.first })
                #expect(!seen.incremental && seen.removed == nil && seen.after == 2 && seen.moves == 0)
                PHPhotoLibrary.shared().unregisterChangeObserver(observer)
            }
        }
    }
#endif
