#if !canImport(ObjectiveC)
    import Foundation
    import PhotoKitSimulator
    import Testing

    /// Authorization: prompts, stored answers, and what each access level allows.
    @Suite("Authorization and access levels")
    struct AuthorizationTests {
        /// A block that creates an album holding a new asset.
        static func saveToNewAlbum() {
            let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Album")
            let asset = PHAssetCreationRequest.forAsset()
            asset.addResource(with: .photo, data: jpegBytes, options: nil)
            album.addAssets([asset.placeholderForCreatedAsset!] as NSArray)
        }

        /// A block that only creates an asset.
        static func saveAssetOnly() {
            PHAssetCreationRequest.forAsset().addResource(with: .photo, data: jpegBytes, options: nil)
        }

        @Test func notDeterminedUntilRequested() {
            let simulation = PhotoKitSimulation()
            simulation.run {
                #expect(PHPhotoLibrary.authorizationStatus(for: .readWrite) == .notDetermined)
                #expect(PHPhotoLibrary.authorizationStatus(for: .addOnly) == .notDetermined)
            }
            #expect(simulation.authorizationPromptCount == 0)
        }

        @Test func requestPromptsOnceThenReturnsStoredStatus() async {
            let simulation = PhotoKitSimulation()
            simulation.setAuthorizationAnswer(.limited, for: .readWrite)
            await simulation.run {
                #expect(await PHPhotoLibrary.requestAuthorization(for: .readWrite) == .limited)
                simulation.setAuthorizationAnswer(.authorized, for: .readWrite)
                #expect(await PHPhotoLibrary.requestAuthorization(for: .readWrite) == .limited)
                #expect(PHPhotoLibrary.authorizationStatus(for: .readWrite) == .limited)
                // Read-write (even limited) access includes adding: no add-only prompt.
                #expect(await PHPhotoLibrary.requestAuthorization(for: .addOnly) == .authorized)
            }
            #expect(simulation.authorizationPromptCount == 1)
            #expect(simulation.authorizationPrompts == [.readWrite])
        }

        @Test func handlerRunsOnTheCompletionQueue() async {
            let simulation = PhotoKitSimulation()
            simulation.setAuthorizationAnswer(.denied, for: .addOnly)
            let (status, onQueue) = await withCheckedContinuation { continuation in
                simulation.run {
                    PHPhotoLibrary.requestAuthorization(for: .addOnly) { status in
                        continuation.resume(
                            returning: (status, simulation.isRunningOnCompletionQueue && !Thread.isMainThread))
                    }
                }
            }
            #expect(status == .denied)
            #expect(onQueue)
        }

        @Test func addOnlyThenReadWriteArePromptedSeparately() async {
            let simulation = PhotoKitSimulation()
            simulation.setAuthorizationAnswer(.authorized, for: .addOnly)
            simulation.setAuthorizationAnswer(.denied, for: .readWrite)
            await simulation.run {
                #expect(await PHPhotoLibrary.requestAuthorization(for: .addOnly) == .authorized)
                #expect(PHPhotoLibrary.authorizationStatus(for: .readWrite) == .notDetermined)
                #expect(await PHPhotoLibrary.requestAuthorization(for: .readWrite) == .denied)
                #expect(PHPhotoLibrary.authorizationStatus(for: .addOnly) == .authorized)
            }
            #expect(simulation.authorizationPrompts == [.addOnly, .readWrite])
        }

        @Test func deprecatedStatusReportsLimitedAsAuthorized() {
            let simulation = PhotoKitSimulation()
            simulation.setAuthorizationStatus(.limited, for: .readWrite)
            simulation.run {
                #expect(PHPhotoLibrary.authorizationStatus() == .authorized)
            }
        }

        @Test func firstChangeBlockPromptsImplicitly() async {
            let simulation = PhotoKitSimulation()
            let completion = await simulation.run { await simulation.perform(Self.saveAssetOnly) }
            #expect(completion.success)
            #expect(simulation.authorizationPrompts == [.addOnly])

            let albums = PhotoKitSimulation()
            let albumCompletion = await albums.run { await albums.perform(Self.saveToNewAlbum) }
            #expect(albumCompletion.success)
            #expect(albums.authorizationPrompts == [.readWrite])
            #expect(albums.albums.count == 1)
        }

        @Test func implicitPromptDeniedFailsTheBlock() async {
            let simulation = PhotoKitSimulation()
            simulation.setAuthorizationAnswer(.denied, for: .addOnly)
            let completion = await simulation.run { await simulation.perform(Self.saveAssetOnly) }
            #expect(completion.code == .accessUserDenied)
            #expect(simulation.assets.isEmpty)
            #expect(simulation.authorizationPromptCount == 1)
        }

        @Test func addOnlyMayOnlyCreateAssets() async throws {
            let simulation = PhotoKitSimulation()
            simulation.setAuthorizationStatus(.authorized, for: .addOnly)
            simulation.setAuthorizationStatus(.denied, for: .readWrite)
            simulation.userCreatesAlbum(titled: "Existing")
            let existingAsset = simulation.userAddsAsset()

            let assetOnly = await simulation.run { await simulation.perform(Self.saveAssetOnly) }
            #expect(assetOnly.success)
            #expect(simulation.assets.count == 2)

            let withAlbum = await simulation.run { await simulation.perform(Self.saveToNewAlbum) }
            #expect(withAlbum.code == .accessUserDenied)
            #expect(withAlbum.nsError?.code == 3311)
            #expect(simulation.assets.count == 2)
            #expect(simulation.albums.map(\.title) == ["Existing"])

            simulation.run {
                #expect(PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).count == 0)
                #expect(
                    PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .any, options: nil).count == 0)
                #expect(PHAsset.fetchAssets(withLocalIdentifiers: [existingAsset], options: nil).count == 0)
                #expect(PHAsset.fetchAssets(with: nil).count == 0)
            }
        }

        @Test func addOnlyFetchPromptsForReadWrite() async {
            let simulation = PhotoKitSimulation()
            simulation.setAuthorizationStatus(.authorized, for: .addOnly)
            simulation.setAuthorizationAnswer(.authorized, for: .readWrite)
            simulation.userCreatesAlbum(titled: "Existing")
            simulation.run {
                // Photos prompts asynchronously: the fetch that triggers the prompt sees nothing.
                #expect(PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).count == 0)
                #expect(PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).count == 1)
            }
            #expect(simulation.authorizationPrompts == [.readWrite])
        }

        @Test func addOnlyAlbumBlockFailsWithoutAReadWritePrompt() async {
            let simulation = PhotoKitSimulation()
            simulation.setAuthorizationAnswer(.authorized, for: .readWrite)
            await simulation.run {
                #expect(await PHPhotoLibrary.requestAuthorization(for: .addOnly) == .authorized)
            }
            let completion = await simulation.run { await simulation.perform(Self.saveToNewAlbum) }
            #expect(completion.code == .accessUserDenied)
            #expect(simulation.authorizationPrompts == [.addOnly])
            #expect(simulation.assets.isEmpty)
            simulation.run {
                #expect(PHPhotoLibrary.authorizationStatus(for: .readWrite) == .notDetermined)
            }
        }

        @Test func firstFetchPromptsAndSeesNothing() {
            let simulation = PhotoKitSimulation()
            simulation.userCreatesAlbum(titled: "Existing")
            simulation.setAuthorizationAnswer(.denied, for: .readWrite)
            simulation.run {
                #expect(PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).count == 0)
                #expect(PHPhotoLibrary.authorizationStatus(for: .readWrite) == .denied)
                #expect(PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).count == 0)
            }
            #expect(simulation.authorizationPrompts == [.readWrite])
        }

        @Test func limitedSeesOnlyItsOwnAssetsAndNoAlbums() async throws {
            let simulation = PhotoKitSimulation()
            simulation.setAuthorizationStatus(.limited, for: .readWrite)
            let hiddenFromApp = simulation.userAddsAsset()
            let selected = simulation.userAddsAsset(isSelectedForLimitedAccess: true)
            let albumID = simulation.userCreatesAlbum(titled: "User album", assetLocalIdentifiers: [hiddenFromApp])

            let created = Recorder<String>()
            let assetOnly = await simulation.run {
                await simulation.perform {
                    let request = PHAssetCreationRequest.forAsset()
                    request.addResource(with: .photo, data: jpegBytes, options: nil)
                    created.append(request.placeholderForCreatedAsset!.localIdentifier)
                }
            }
            #expect(assetOnly.success)
            let createdID = try #require(created.values.first)

            let withAlbum = await simulation.run { await simulation.perform(Self.saveToNewAlbum) }
            #expect(withAlbum.code == .accessUserDenied)

            simulation.run {
                let visible = PHAsset.fetchAssets(
                    withLocalIdentifiers: [hiddenFromApp, selected, createdID], options: nil)
                #expect(visible.count == 2)
                #expect(visible.object(at: 0).localIdentifier == selected)
                #expect(visible.object(at: 1).localIdentifier == createdID)
                #expect(PHAsset.fetchAssets(with: nil).count == 2)
                #expect(PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).count == 0)
                #expect(
                    PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [albumID], options: nil).count == 0)
            }
            #expect(simulation.asset(withLocalIdentifier: createdID)?.isInLimitedSelection == true)
        }

        @Test func limitedCannotUseAnAlbumFetchedBefore() async throws {
            let simulation = authorizedSimulation()
            let albumID = simulation.userCreatesAlbum(titled: "Before")
            let album = try #require(
                simulation.run {
                    PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [albumID], options: nil).firstObject
                })
            simulation.setAuthorizationStatus(.limited, for: .readWrite)
            let completion = await simulation.run {
                await simulation.perform {
                    let asset = PHAssetCreationRequest.forAsset()
                    asset.addResource(with: .photo, data: jpegBytes, options: nil)
                    PHAssetCollectionChangeRequest(for: album)?.addAssets(
                        [asset.placeholderForCreatedAsset!] as NSArray)
                }
            }
            #expect(completion.code == .accessUserDenied)
            #expect(simulation.assets.isEmpty)
        }

        @Test(arguments: [
            (PHAuthorizationStatus.denied, PHPhotosError.Code.accessUserDenied),
            (PHAuthorizationStatus.restricted, PHPhotosError.Code.accessRestricted),
        ])
        func deniedAndRestrictedFail(status: PHAuthorizationStatus, code: PHPhotosError.Code) async {
            let simulation = PhotoKitSimulation()
            simulation.setAuthorizationStatus(status, for: .readWrite)
            simulation.userCreatesAlbum(titled: "Existing")
            let assetOnly = await simulation.run { await simulation.perform(Self.saveAssetOnly) }
            let withAlbum = await simulation.run { await simulation.perform(Self.saveToNewAlbum) }
            #expect(assetOnly.code == code)
            #expect(withAlbum.code == code)
            #expect(withAlbum.nsError?.code == code.rawValue)
            #expect(simulation.assets.isEmpty)
            simulation.run {
                #expect(PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).count == 0)
                #expect(PHPhotoLibrary.authorizationStatus(for: .addOnly) == status)
            }
            #expect(simulation.authorizationPromptCount == 0)
        }

        @Test func restrictedNeverPromptsAgain() async {
            let simulation = PhotoKitSimulation()
            simulation.setAuthorizationStatus(.restricted, for: .readWrite)
            await simulation.run {
                #expect(await PHPhotoLibrary.requestAuthorization(for: .readWrite) == .restricted)
                #expect(await PHPhotoLibrary.requestAuthorization(for: .addOnly) == .restricted)
            }
            #expect(simulation.authorizationPromptCount == 0)
        }

        @Test func fullAccessDoesEverything() async throws {
            let simulation = authorizedSimulation()
            let completion = await simulation.run { await simulation.perform(Self.saveToNewAlbum) }
            #expect(completion.success)
            #expect(simulation.albums.first?.assetLocalIdentifiers == simulation.assets.map(\.localIdentifier))
            simulation.run {
                #expect(PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).count == 1)
            }
            #expect(simulation.authorizationPromptCount == 0)
        }
    }
#endif
