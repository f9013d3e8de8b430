#if !canImport(ObjectiveC)
    import Foundation
    import PhotoKitSimulator
    import Synchronization
    import Testing

    /// Code written the way it is written against Photos (imports, casts, `@unknown default`,
    /// bridged errors, discarded results) must compile and behave here unchanged.
    enum AppleStyleSaver {
        enum Outcome: Sendable, Equatable {
            case saved(assetID: String, albumID: String)
            case denied
            case failed(code: Int)
        }

        /// Finds or creates the album titled `title` and adds the photo at `url`, in one change block.
        static func save(photoAt url: URL, toAlbumTitled title: String) async -> Outcome {
            let status = await PHPhotoLibrary.requestAuthorization(for: .readWrite)
            switch status {
            case .authorized: break
            case .notDetermined, .restricted, .denied, .limited: return .denied
            @unknown default: return .denied
            }

            let options = PHFetchOptions()
            options.predicate = NSPredicate(format: "title = %@", title)
            options.sortDescriptors = [NSSortDescriptor(key: "localIdentifier", ascending: true)]
            let existing = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options)
                .firstObject

            let ids = Mutex<(asset: String?, album: String?)>((nil, nil))
            do {
                try await PHPhotoLibrary.shared().performChanges {
                    let creation = PHAssetCreationRequest.forAsset()
                    let resourceOptions = PHAssetResourceCreationOptions()
                    resourceOptions.originalFilename = url.lastPathComponent
                    creation.addResource(with: .photo, fileURL: url, options: resourceOptions)
                    guard let placeholder = creation.placeholderForCreatedAsset else { return }

                    let albumRequest: PHAssetCollectionChangeRequest?
                    if let existing {
                        albumRequest = PHAssetCollectionChangeRequest(for: existing)
                    } else {
                        albumRequest = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(
                            withTitle: title)
                    }
                    albumRequest?.addAssets([placeholder] as NSFastEnumeration)
                    let albumID =
                        existing?.localIdentifier ?? albumRequest?.placeholderForCreatedAssetCollection.localIdentifier
                    ids.withLock { $0 = (placeholder.localIdentifier, albumID) }
                }
            } catch let error as PHPhotosError {
                switch error.code {
                case .accessUserDenied, .accessRestricted: return .denied
                default: return .failed(code: error.errorCode)
                }
            } catch {
                return .failed(code: (error as NSError).code)
            }
            let (asset, album) = ids.withLock { $0 }
            guard let asset, let album else { return .failed(code: -1) }
            return .saved(assetID: asset, albumID: album)
        }

        /// The completion-handler form, as the classic save-to-album recipes use it.
        static func createAlbum(titled title: String, completion: @escaping @Sendable (Bool, (any Error)?) -> Void) {
            PHPhotoLibrary.shared().performChanges(
                {
                    PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
                }, completionHandler: completion)
        }
    }

    @Suite("Apple-style source")
    struct AppleStyleSourceTests {
        @Test func findOrCreateAndSaveInOneBlock() async throws {
            let directory = try TemporaryDirectory()
            let photo = try directory.file("IMG_0001.JPG")
            let simulation = PhotoKitSimulation()
            let (first, second) = await simulation.run {
                (
                    await AppleStyleSaver.save(photoAt: photo, toAlbumTitled: "Trips"),
                    await AppleStyleSaver.save(photoAt: photo, toAlbumTitled: "Trips")
                )
            }
            guard case .saved(let firstAsset, let firstAlbum) = first,
                case .saved(let secondAsset, let secondAlbum) = second
            else {
                Issue.record("expected two saves, got \(first), \(second)")
                return
            }
            #expect(firstAlbum == secondAlbum)
            #expect(simulation.albums.count == 1)
            #expect(
                simulation.album(withLocalIdentifier: firstAlbum)?.assetLocalIdentifiers == [firstAsset, secondAsset])
            #expect(simulation.changeBlockCount == 2)
            #expect(simulation.authorizationPromptCount == 1)
        }

        @Test func deniedAndFailuresMapThroughBridgedErrors() async throws {
            let directory = try TemporaryDirectory()
            let photo = try directory.file("IMG_0001.JPG")
            let denied = PhotoKitSimulation()
            denied.setAuthorizationAnswer(.denied, for: .readWrite)
            #expect(await denied.run { await AppleStyleSaver.save(photoAt: photo, toAlbumTitled: "T") } == .denied)

            let full = authorizedSimulation()
            full.failNextCommit(with: .notEnoughSpace)
            #expect(
                await full.run { await AppleStyleSaver.save(photoAt: photo, toAlbumTitled: "T") } == .failed(code: 3305)
            )
            #expect(full.assets.isEmpty)
        }

        @Test func completionHandlerForm() async {
            let simulation = authorizedSimulation()
            let success = await withCheckedContinuation { continuation in
                simulation.run {
                    AppleStyleSaver.createAlbum(titled: "Seed") { success, _ in continuation.resume(returning: success)
                    }
                }
            }
            #expect(success)
            #expect(simulation.albums.map(\.title) == ["Seed"])
        }
    }
#endif
