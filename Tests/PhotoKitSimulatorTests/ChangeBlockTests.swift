#if !canImport(ObjectiveC)
    import Foundation
    import PhotoKitSimulator
    import Testing

    /// Change blocks: atomic commits, placeholders, queues, the three call forms.
    @Suite("Change blocks")
    struct ChangeBlockTests {
        @Test func albumAndAssetCommitTogetherWithPlaceholders() async throws {
            let simulation = authorizedSimulation()
            let ids = Recorder<String>()
            let completion = await simulation.run {
                await simulation.perform {
                    let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Trips")
                    let creation = PHAssetCreationRequest.forAsset()
                    creation.addResource(with: .photo, data: jpegBytes, options: nil)
                    let placeholder = creation.placeholderForCreatedAsset!
                    album.addAssets([placeholder] as NSArray)
                    ids.append(album.placeholderForCreatedAssetCollection.localIdentifier)
                    ids.append(placeholder.localIdentifier)
                }
            }
            #expect(completion.success)
            #expect(completion.error == nil)
            let albumID = ids.values[0]
            let assetID = ids.values[1]
            #expect(isLocalIdentifier(albumID, entity: "040"))
            #expect(isLocalIdentifier(assetID, entity: "001"))

            let album = try #require(simulation.album(withLocalIdentifier: albumID))
            #expect(album.title == "Trips")
            #expect(album.assetLocalIdentifiers == [assetID])
            #expect(album.isCreatedByApp)
            #expect(simulation.asset(withLocalIdentifier: assetID)?.resources.first?.data == jpegBytes)
        }

        @Test func placeholderEqualsTheFetchedObject() async throws {
            let simulation = authorizedSimulation()
            try await simulation.run {
                let placeholders = Recorder<PHObjectPlaceholder>()
                try await PHPhotoLibrary.shared().performChanges {
                    let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "A")
                    placeholders.append(request.placeholderForCreatedAssetCollection)
                }
                let placeholder = try #require(placeholders.values.first)
                let fetched = try #require(
                    PHAssetCollection.fetchAssetCollections(
                        withLocalIdentifiers: [placeholder.localIdentifier], options: nil
                    ).firstObject
                )
                #expect(fetched.isEqual(placeholder))
                #expect(fetched.localIdentifier == placeholder.localIdentifier)
                #expect(fetched.localizedTitle == "A")
            }
        }

        @Test func modificationRequestHasNoAssetPlaceholder() async throws {
            let simulation = authorizedSimulation()
            let assetID = simulation.userAddsAsset()
            try await simulation.run {
                let asset = try #require(PHAsset.fetchAssets(withLocalIdentifiers: [assetID], options: nil).firstObject)
                let hadPlaceholder = Recorder<Bool>()
                try await PHPhotoLibrary.shared().performChanges {
                    let request = PHAssetChangeRequest(for: asset)
                    request.isFavorite = true
                    hadPlaceholder.append(request.placeholderForCreatedAsset != nil)
                }
                #expect(hadPlaceholder.values == [false])
            }
            #expect(simulation.asset(withLocalIdentifier: assetID)?.isFavorite == true)
        }

        @Test func failingBlockLeavesNothing() async throws {
            let simulation = authorizedSimulation()
            let missing = FileManager.default.temporaryDirectory.appendingPathComponent(
                "no-such-\(UUID().uuidString).jpg")
            let completion = await simulation.run {
                await simulation.perform {
                    let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Trips")
                    let good = PHAssetCreationRequest.forAsset()
                    good.addResource(with: .photo, data: jpegBytes, options: nil)
                    let bad = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: missing)!
                    album.addAssets([good.placeholderForCreatedAsset!, bad.placeholderForCreatedAsset!] as NSArray)
                }
            }
            #expect(!completion.success)
            #expect(completion.code == .invalidResource)
            #expect(completion.nsError?.code == 3302)
            #expect(simulation.albums.isEmpty)
            #expect(simulation.assets.isEmpty)
            #expect(simulation.committedChangeBlockCount == 0)
            #expect(simulation.failedChangeBlockCount == 1)
        }

        @Test func changesAreInvisibleUntilTheBlockCommits() async throws {
            let simulation = authorizedSimulation()
            let seenInsideBlock = Recorder<Int>()
            try await simulation.run {
                try await PHPhotoLibrary.shared().performChanges {
                    PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Pending")
                    seenInsideBlock.append(
                        PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).count
                    )
                }
                #expect(PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).count == 1)
            }
            #expect(seenInsideBlock.values == [0])
        }

        @Test func blockAndCompletionRunOnSerialNonMainQueues() async throws {
            let simulation = authorizedSimulation()
            let onChangeQueue = Recorder<Bool>()
            let completion = await simulation.perform {
                onChangeQueue.append(simulation.isRunningOnChangeQueue && !Thread.isMainThread)
            }
            #expect(onChangeQueue.values == [true])
            #expect(completion.onCompletionQueue)
            #expect(!completion.onMainThread)
        }

        @Test func changeBlocksNeverOverlap() async throws {
            let simulation = authorizedSimulation()
            let counter = Recorder<Int>()
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        _ = await simulation.perform {
                            counter.append(index)
                            Thread.sleep(forTimeInterval: 0.001)
                            counter.append(-index)
                        }
                    }
                }
            }
            // Entries come in +n, -n pairs: a block never starts before the previous one ended.
            let values = counter.values
            #expect(values.count == 40)
            for pair in stride(from: 0, to: values.count, by: 2) {
                #expect(values[pair] == -values[pair + 1])
            }
            #expect(simulation.changeBlockCount == 20)
        }

        @Test func asyncFormThrowsPhotosError() async throws {
            let simulation = PhotoKitSimulation()
            simulation.setAuthorizationStatus(.denied, for: .readWrite)
            await simulation.run {
                await #expect(throws: PHPhotosError.self) {
                    try await PHPhotoLibrary.shared().performChanges {
                        PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "X")
                    }
                }
                do {
                    try await PHPhotoLibrary.shared().performChanges {
                        PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "X")
                    }
                    Issue.record("expected an error")
                } catch PHPhotosError.accessUserDenied {
                    // expected
                } catch {
                    Issue.record("unexpected \(error)")
                }
            }
        }

        @Test func performChangesAndWaitThrowsAndCommits() async throws {
            let simulation = authorizedSimulation()
            try simulation.run {
                try PHPhotoLibrary.shared().performChangesAndWait {
                    PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Now")
                }
                #expect(simulation.albums.map(\.title) == ["Now"])
                simulation.failNextCommit(with: .notEnoughSpace)
                let error = #expect(throws: PHPhotosError.self) {
                    try PHPhotoLibrary.shared().performChangesAndWait {
                        PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Later")
                    }
                }
                #expect(error?.code == .notEnoughSpace)
            }
            #expect(simulation.albums.map(\.title) == ["Now"])
        }

        @Test func performChangesAndWaitWorksFromACompletionHandler() async throws {
            let simulation = authorizedSimulation()
            let outcome = Recorder<Bool>()
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                simulation.library.performChanges({}) { _, _ in
                    do {
                        try PHPhotoLibrary.shared().performChangesAndWait {
                            PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Chained")
                        }
                        outcome.append(true)
                    } catch {
                        outcome.append(false)
                    }
                    continuation.resume()
                }
            }
            #expect(outcome.values == [true])
            #expect(simulation.albums.map(\.title) == ["Chained"])
        }

        @Test func emptyBlockSucceeds() async {
            let simulation = authorizedSimulation()
            let completion = await simulation.perform {}
            #expect(completion.success)
            #expect(simulation.committedChangeBlockCount == 1)
        }

        @Test func duplicateAlbumTitlesAreAllowed() async throws {
            let simulation = authorizedSimulation()
            simulation.userCreatesAlbum(titled: "Trips")
            try await simulation.run {
                try await PHPhotoLibrary.shared().performChanges {
                    PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Trips")
                    PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Trips")
                }
                let fetched = PHAssetCollection.fetchAssetCollections(
                    with: .album, subtype: .albumRegular, options: titled("Trips"))
                #expect(fetched.count == 3)
            }
            let albums = simulation.albums(titled: "Trips")
            #expect(albums.count == 3)
            #expect(albums.map(\.creationIndex) == [0, 1, 2])
            #expect(Set(albums.map(\.localIdentifier)).count == 3)
            #expect(albums.map(\.isCreatedByApp) == [false, true, true])
        }

        @Test func existingAlbumGetsAssetsAppendedAndRenamed() async throws {
            let simulation = authorizedSimulation()
            let first = simulation.userAddsAsset()
            let albumID = simulation.userCreatesAlbum(titled: "Old", assetLocalIdentifiers: [first])
            try await simulation.run {
                let album = try #require(
                    PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [albumID], options: nil).firstObject)
                let assets = PHAsset.fetchAssets(in: album, options: nil)
                try await PHPhotoLibrary.shared().performChanges {
                    let creation = PHAssetCreationRequest.forAsset()
                    creation.addResource(with: .photo, data: jpegBytes, options: nil)
                    let change = PHAssetCollectionChangeRequest(for: album, assets: assets)!
                    #expect(change.title == "Old")
                    change.title = "New"
                    change.addAssets([creation.placeholderForCreatedAsset!] as NSFastEnumeration)
                }
            }
            let album = try #require(simulation.album(withLocalIdentifier: albumID))
            #expect(album.title == "New")
            #expect(album.assetLocalIdentifiers.count == 2)
            #expect(album.assetLocalIdentifiers.first == first)
        }

        @Test func membershipEditsByIndex() async throws {
            let simulation = authorizedSimulation()
            let a = simulation.userAddsAsset()
            let b = simulation.userAddsAsset()
            let c = simulation.userAddsAsset()
            let albumID = simulation.userCreatesAlbum(titled: "Order", assetLocalIdentifiers: [a, b])
            try await simulation.run {
                let album = try #require(
                    PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [albumID], options: nil).firstObject)
                let assetC = try #require(PHAsset.fetchAssets(withLocalIdentifiers: [c], options: nil).firstObject)
                try await PHPhotoLibrary.shared().performChanges {
                    let change = PHAssetCollectionChangeRequest(for: album)!
                    change.insertAssets([assetC] as NSArray, at: IndexSet(integer: 0))
                    change.moveAssets(at: IndexSet(integer: 2), to: 0)
                    change.removeAssets(at: IndexSet(integer: 2))
                }
            }
            #expect(simulation.album(withLocalIdentifier: albumID)?.assetLocalIdentifiers == [b, c])
        }

        @Test func deletingAlbumsAndAssets() async throws {
            let simulation = authorizedSimulation()
            let assetID = simulation.userAddsAsset()
            let keep = simulation.userCreatesAlbum(titled: "Keep", assetLocalIdentifiers: [assetID])
            let drop = simulation.userCreatesAlbum(titled: "Drop", assetLocalIdentifiers: [assetID])
            try await simulation.run {
                let album = try #require(
                    PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [drop], options: nil).firstObject)
                try await PHPhotoLibrary.shared().performChanges {
                    PHAssetCollectionChangeRequest.deleteAssetCollections([album] as NSArray)
                }
                #expect(simulation.albums.map(\.localIdentifier) == [keep])
                #expect(simulation.asset(withLocalIdentifier: assetID) != nil)

                let asset = try #require(PHAsset.fetchAssets(withLocalIdentifiers: [assetID], options: nil).firstObject)
                try await PHPhotoLibrary.shared().performChanges {
                    PHAssetChangeRequest.deleteAssets([asset] as NSArray)
                }
            }
            #expect(simulation.assets.isEmpty)
            #expect(simulation.album(withLocalIdentifier: keep)?.assetLocalIdentifiers == [])
        }

        @Test func smartAlbumCannotBeEdited() async throws {
            let simulation = authorizedSimulation()
            try await simulation.run {
                let recents = try #require(
                    PHAssetCollection.fetchAssetCollections(
                        with: .smartAlbum, subtype: .smartAlbumUserLibrary, options: nil
                    ).firstObject
                )
                #expect(!recents.canPerform(.addContent))
                let created = Recorder<Bool>()
                try await PHPhotoLibrary.shared().performChanges {
                    created.append(PHAssetCollectionChangeRequest(for: recents) != nil)
                }
                #expect(created.values == [false])
            }
        }

        @Test func assetPropertiesFromTheCreationRequest() async throws {
            let simulation = authorizedSimulation()
            let date = Date(timeIntervalSince1970: 1_000_000_000)
            try await simulation.run {
                try await PHPhotoLibrary.shared().performChanges {
                    let creation = PHAssetCreationRequest.forAsset()
                    creation.addResource(with: .photo, data: jpegBytes, options: nil)
                    creation.creationDate = date
                    creation.location = CLLocation(latitude: 48.85, longitude: 2.35)
                    #expect(creation.creationDate == date)
                }
            }
            let asset = try #require(simulation.assets.first)
            #expect(asset.creationDate == date)
            #expect(asset.location?.coordinate.latitude == 48.85)
            #expect(asset.isCreatedByApp)
        }
    }
#endif
