#if !canImport(ObjectiveC)
    import AlbumTestSupport
    import Foundation
    import PhotoKitSimulator
    import Testing

    /// `PHImageManager.requestImage`: decoded, fitted or filled, delivered once or — opportunistic
    /// and asynchronous — degraded first; `nil` with an error for an asset that is gone.
    @Suite("Image requests")
    struct ImageRequestTests {
        /// One delivered result.
        struct Delivery: Sendable {
            let width: Int?
            let height: Int?
            let jpeg: Data?
            let isDegraded: Bool
            let error: PHPhotosError.Code?
            let onCompletionQueue: Bool
        }

        /// A library holding one 400×300 JPEG that ImageMagick drew; returns it and the asset.
        func libraryWithPhoto() async throws -> (PhotoKitSimulation, PHAsset, TemporaryDirectory) {
            let folder = try TemporaryDirectory()
            let photo = folder.url.appendingPathComponent("IMG_0001.JPG")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try ExternalTool.require("convert"))
            process.arguments = ["-size", "400x300", "gradient:red-blue", photo.path]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let simulation = authorizedSimulation()
            let asset = try await simulation.run {
                try await PHPhotoLibrary.shared().performChanges {
                    PHAssetCreationRequest.forAsset().addResource(with: .photo, fileURL: photo, options: nil)
                }
                return try #require(PHAsset.fetchAssets(with: nil).firstObject)
            }
            return (simulation, asset, folder)
        }

        /// Requests an image and collects what the handler gets until a result that is not degraded.
        func request(
            _ asset: PHAsset, in simulation: PhotoKitSimulation, size: CGSize, mode: PHImageContentMode = .aspectFit,
            options: PHImageRequestOptions
        ) async -> [Delivery] {
            let recorder = Recorder<Delivery>()
            await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
                let requested: PHImageRequestID = simulation.run {
                    PHImageManager.default().requestImage(
                        for: asset, targetSize: size, contentMode: mode, options: options
                    ) { image, info in
                        let degraded = info?[PHImageResultIsDegradedKey] as? Bool ?? false
                        recorder.append(
                            Delivery(
                                width: image.map { Int($0.size.width * $0.scale) },
                                height: image.map { Int($0.size.height * $0.scale) },
                                jpeg: image?.jpegData(compressionQuality: 0.8), isDegraded: degraded,
                                error: (info?[PHImageErrorKey] as? PHPhotosError)?.code,
                                onCompletionQueue: simulation.isRunningOnCompletionQueue))
                        if !degraded { finished.resume() }
                    }
                }
                #expect(requested != PHInvalidImageRequestID)
            }
            return recorder.values
        }

        @Test func aSynchronousRequestDeliversOnceFittedBeforeItReturns() async throws {
            let (simulation, asset, folder) = try await libraryWithPhoto()
            defer { withExtendedLifetime(folder) {} }
            let options = PHImageRequestOptions()
            options.isSynchronous = true
            let recorder = Recorder<Delivery>()
            _ = simulation.run {
                PHImageManager.default().requestImage(
                    for: asset, targetSize: CGSize(width: 100, height: 100), contentMode: .aspectFit, options: options
                ) { image, info in
                    recorder.append(
                        Delivery(
                            width: image.map { Int($0.size.width) }, height: image.map { Int($0.size.height) },
                            jpeg: image?.jpegData(compressionQuality: 0.8), isDegraded: false, error: nil,
                            onCompletionQueue: simulation.isRunningOnCompletionQueue))
                }
            }
            // Delivered before `requestImage` returned, on the calling thread.
            let deliveries = recorder.values
            #expect(deliveries.count == 1)
            #expect(deliveries.first?.width == 100 && deliveries.first?.height == 75)
            #expect(deliveries.first?.onCompletionQueue == false)
            let jpeg = try #require(deliveries.first?.jpeg)
            #expect(jpeg.starts(with: [0xFF, 0xD8, 0xFF]))
        }

        @Test func anOpportunisticRequestDeliversADegradedImageFirst() async throws {
            let (simulation, asset, folder) = try await libraryWithPhoto()
            defer { withExtendedLifetime(folder) {} }
            let deliveries = await request(
                asset, in: simulation, size: CGSize(width: 200, height: 200), options: PHImageRequestOptions())
            #expect(deliveries.map(\.isDegraded) == [true, false])
            #expect(deliveries.map(\.width) == [50, 200])
            #expect(deliveries.filter(\.onCompletionQueue).count == 2)
        }

        @Test func aHighQualityRequestDeliversOnceAndFillsOrKeepsTheSize() async throws {
            let (simulation, asset, folder) = try await libraryWithPhoto()
            defer { withExtendedLifetime(folder) {} }
            let options = PHImageRequestOptions()
            options.deliveryMode = .highQualityFormat
            let filled = await request(
                asset, in: simulation, size: CGSize(width: 100, height: 100), mode: .aspectFill, options: options)
            #expect(filled.count == 1)
            #expect(filled.first?.width == 133 && filled.first?.height == 100)
            let whole = await request(asset, in: simulation, size: PHImageManagerMaximumSize, options: options)
            #expect(whole.first?.width == 400 && whole.first?.height == 300)
        }

        @Test func anAssetThatIsGoneGivesNoImageAndAnError() async throws {
            let (simulation, asset, folder) = try await libraryWithPhoto()
            defer { withExtendedLifetime(folder) {} }
            #expect(simulation.userDeletesAsset(withLocalIdentifier: asset.localIdentifier))
            let options = PHImageRequestOptions()
            options.deliveryMode = .highQualityFormat
            let deliveries = await request(asset, in: simulation, size: CGSize(width: 64, height: 64), options: options)
            #expect(deliveries.count == 1)
            #expect(deliveries.first?.width == nil)
            #expect(deliveries.first?.error == .identifierNotFound)
        }
    }
#endif
