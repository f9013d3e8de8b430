#if !canImport(ObjectiveC)
    import Foundation
    import PhotoKitSimulator
    import Testing

    /// Misuse that Photos answers with an Objective-C exception traps in the simulator.
    /// Each case runs in a child process (Swift Testing exit tests).
    @Suite("Traps")
    struct TrapTests {
        @Test func albumCreationOutsideAChangeBlock() async {
            await #expect(processExitsWith: .failure) {
                PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Outside")
            }
        }

        @Test func assetCreationOutsideAChangeBlock() async {
            await #expect(processExitsWith: .failure) {
                PHAssetCreationRequest.forAsset()
            }
        }

        @Test func deletionOutsideAChangeBlock() async {
            await #expect(processExitsWith: .failure) {
                PHAssetChangeRequest.deleteAssets([] as NSArray)
            }
        }

        @Test func collectionChangeRequestOutsideAChangeBlock() async {
            await #expect(processExitsWith: .failure) {
                PhotoKitSimulation.current.setAuthorizationStatus(.authorized, for: .readWrite)
                let id = PhotoKitSimulation.current.userCreatesAlbum(titled: "A")
                let album = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [id], options: nil)
                    .firstObject!
                _ = PHAssetCollectionChangeRequest(for: album)
            }
        }

        @Test func requestUsedAfterItsBlockReturned() async {
            await #expect(processExitsWith: .failure) {
                PhotoKitSimulation.current.setAuthorizationStatus(.authorized, for: .readWrite)
                var kept: PHAssetCollectionChangeRequest?
                try? PHPhotoLibrary.shared().performChangesAndWait {
                    kept = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "A")
                }
                kept?.title = "B"
            }
        }

        @Test func nestedPerformChanges() async {
            await #expect(processExitsWith: .failure) {
                PhotoKitSimulation.current.setAuthorizationStatus(.authorized, for: .readWrite)
                try? PHPhotoLibrary.shared().performChangesAndWait {
                    PHPhotoLibrary.shared().performChanges {}
                }
            }
        }

        @Test func nestedPerformChangesAndWait() async {
            await #expect(processExitsWith: .failure) {
                PhotoKitSimulation.current.setAuthorizationStatus(.authorized, for: .readWrite)
                try? PHPhotoLibrary.shared().performChangesAndWait {
                    try? PHPhotoLibrary.shared().performChangesAndWait {}
                }
            }
        }

        @Test func unsupportedPredicateKey() async {
            await #expect(processExitsWith: .failure) {
                PhotoKitSimulation.current.setAuthorizationStatus(.authorized, for: .readWrite)
                PhotoKitSimulation.current.userCreatesAlbum(titled: "A")
                let options = PHFetchOptions()
                options.predicate = NSPredicate(format: "name = %@", "A")
                _ = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options)
            }
        }

        @Test func blockPredicateIsUnsupported() async {
            await #expect(processExitsWith: .failure) {
                PhotoKitSimulation.current.setAuthorizationStatus(.authorized, for: .readWrite)
                PhotoKitSimulation.current.userCreatesAlbum(titled: "A")
                let options = PHFetchOptions()
                options.predicate = NSPredicate(value: true)
                _ = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options)
            }
        }

        @Test func fetchResultIndexOutOfRange() async {
            await #expect(processExitsWith: .failure) {
                _ = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [], options: nil).object(at: 0)
            }
        }
    }
#endif
