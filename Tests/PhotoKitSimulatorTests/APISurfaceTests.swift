#if !canImport(ObjectiveC)
    import Foundation
    import PhotoKitSimulator
    import Testing

    /// Names, raw values and shapes that the adapter compiles against, pinned to the reference.
    @Suite("API surface")
    struct APISurfaceTests {
        @Test func authorizationRawValues() {
            #expect(PHAuthorizationStatus.notDetermined.rawValue == 0)
            #expect(PHAuthorizationStatus.restricted.rawValue == 1)
            #expect(PHAuthorizationStatus.denied.rawValue == 2)
            #expect(PHAuthorizationStatus.authorized.rawValue == 3)
            #expect(PHAuthorizationStatus.limited.rawValue == 4)
            #expect(PHAccessLevel.addOnly.rawValue == 1)
            #expect(PHAccessLevel.readWrite.rawValue == 2)
        }

        @Test func resourceAndMediaRawValues() {
            let resources: [(PHAssetResourceType, Int)] = [
                (.photo, 1), (.video, 2), (.audio, 3), (.alternatePhoto, 4), (.fullSizePhoto, 5), (.fullSizeVideo, 6),
                (.adjustmentData, 7), (.adjustmentBasePhoto, 8), (.pairedVideo, 9), (.fullSizePairedVideo, 10),
                (.adjustmentBasePairedVideo, 11), (.adjustmentBaseVideo, 12), (.photoProxy, 19),
            ]
            for (type, raw) in resources { #expect(type.rawValue == raw) }
            #expect(PHAssetMediaType.unknown.rawValue == 0)
            #expect(PHAssetMediaType.image.rawValue == 1)
            #expect(PHAssetMediaType.video.rawValue == 2)
            #expect(PHAssetMediaType.audio.rawValue == 3)
            #expect(PHAssetMediaSubtype.photoLive.rawValue == 1 << 3)
            #expect(PHAssetMediaSubtype.photoPanorama.rawValue == 1)
            #expect(PHAssetMediaSubtype.videoCinematic.rawValue == 1 << 21)
        }

        @Test func collectionRawValues() {
            #expect(PHAssetCollectionType.album.rawValue == 1)
            #expect(PHAssetCollectionType.smartAlbum.rawValue == 2)
            #expect(PHAssetCollectionType.moment.rawValue == 3)
            #expect(PHAssetCollectionSubtype.albumRegular.rawValue == 2)
            #expect(PHAssetCollectionSubtype.albumCloudShared.rawValue == 101)
            #expect(PHAssetCollectionSubtype.smartAlbumUserLibrary.rawValue == 209)
            #expect(PHAssetCollectionSubtype.smartAlbumScreenRecordings.rawValue == 220)
            #expect(PHAssetCollectionSubtype.any.rawValue == Int.max)
            #expect(PHCollectionEditOperation.addContent.rawValue == 3)
            #expect(PHCollectionEditOperation.rename.rawValue == 7)
        }

        static let errorCodes: [(PHPhotosError.Code, Int)] = [
            (.internalError, -1), (.userCancelled, 3072), (.libraryVolumeOffline, 3114),
            (.relinquishingLibraryBundleToWriter, 3142), (.switchingSystemPhotoLibrary, 3143),
            (.networkAccessRequired, 3164), (.networkError, 3169), (.identifierNotFound, 3201),
            (.multipleIdentifiersFound, 3202), (.changeNotSupported, 3300), (.operationInterrupted, 3301),
            (.invalidResource, 3302), (.missingResource, 3303), (.notEnoughSpace, 3305),
            (.requestNotSupportedForAsset, 3306), (.limitExceeded, 3307), (.accessRestricted, 3310),
            (.accessUserDenied, 3311), (.libraryInFileProviderSyncRoot, 5423), (.persistentChangeTokenExpired, 3105),
            (.persistentChangeDetailsUnavailable, 3210),
        ]

        @Test func everyPhotosErrorCodeHasItsRawValue() {
            for (code, raw) in Self.errorCodes {
                #expect(code.rawValue == raw, "\(code)")
                #expect(PHPhotosError.Code(rawValue: raw) == code)
            }
            #expect(PHPhotosError.accessUserDenied == .accessUserDenied)
            #expect(PHPhotosErrorDomain == "PHPhotosErrorDomain")
            #expect(PHPhotosError.errorDomain == "PHPhotosErrorDomain")
        }

        @Test func photosErrorBridgesLikeAppleImport() throws {
            func fail() throws { throw PHPhotosError(.accessUserDenied) }

            var matchedPattern = false
            do { try fail() } catch PHPhotosError.accessUserDenied { matchedPattern = true } catch {}
            #expect(matchedPattern)

            do { try fail() } catch {
                let nsError = error as NSError
                #expect(nsError.code == 3311)
                #expect(nsError.domain == PHPhotosErrorDomain)
            }

            let error = try #require(throws: PHPhotosError.self) { try fail() }
            #expect(error.code == .accessUserDenied)
            #expect(error.errorCode == 3311)
        }

        @Test func sendableExactlyWhereReferenceSaysSo() {
            func requireSendable<T: Sendable>(_: T.Type) {}
            requireSendable(PHPhotoLibrary.self)
            requireSendable(PHObject.self)
            requireSendable(PHAsset.self)
            requireSendable(PHAssetCollection.self)
            requireSendable(PHCollection.self)
            requireSendable(PHObjectPlaceholder.self)
            requireSendable(PHFetchResult<PHAsset>.self)
            requireSendable(PHAuthorizationStatus.self)
            requireSendable(PHPhotosError.self)
            // Change requests and PHFetchOptions are deliberately not Sendable (not checkable at run time).
        }

        @Test func fastEnumerationCastsCompile() {
            let objects: [PHObject] = []
            let asArray = objects as NSArray
            let asEnumeration: any NSFastEnumeration = objects as NSFastEnumeration
            let nsArrayEnumeration: any NSFastEnumeration = asArray
            #expect(asArray.count == 0)
            _ = asEnumeration
            _ = nsArrayEnumeration
        }

        @Test func predicateAndSortDescriptorStandInsCompile() {
            let predicate = NSPredicate(format: "title = %@", "Trips")
            let descriptor = NSSortDescriptor(key: "creationDate", ascending: false)
            #expect(descriptor.ascending == false)
            _ = predicate
        }

        /// Trailing closure in synchronous code: the completion-handler form.
        static func performInSyncCode(_ library: PHPhotoLibrary) {
            library.performChanges {}
            library.performChanges({}, completionHandler: nil)
        }

        @Test func syncAndAsyncPerformChangesOverloadsResolve() async throws {
            let simulation = authorizedSimulation()
            try await simulation.run {
                let library = PHPhotoLibrary.shared()
                Self.performInSyncCode(library)
                // In async code the same spelling with `try await` is the async form (Void, not Bool).
                let result: Void = try await library.performChanges {}
                _ = result
                try library.performChangesAndWait {}
            }
            await simulation.waitUntilIdle()
            #expect(simulation.changeBlockCount == 4)
        }

        @Test func sharedLibraryIsStablePerSimulation() {
            let simulation = PhotoKitSimulation()
            simulation.run {
                #expect(PHPhotoLibrary.shared() === simulation.library)
                #expect(PHPhotoLibrary.shared() === PHPhotoLibrary.shared())
            }
            #expect(PHPhotoLibrary.shared() !== simulation.library)
        }
    }
#endif
