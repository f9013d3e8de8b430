#if !canImport(ObjectiveC)
    import Foundation
    import PhotoKitSimulator
    import Testing

    /// Asset resources: deferred validation, filenames, file moves, media types.
    @Suite("Asset resources")
    struct ResourceTests {
        @Test func dataResourceKeepsBytesAndFilename() async throws {
            let simulation = authorizedSimulation()
            try await simulation.run {
                try await PHPhotoLibrary.shared().performChanges {
                    let options = PHAssetResourceCreationOptions()
                    options.originalFilename = "IMG_0042.HEIC"
                    PHAssetCreationRequest.forAsset().addResource(with: .photo, data: jpegBytes, options: options)
                }
            }
            let resource = try #require(simulation.assets.first?.resources.first)
            #expect(resource.type == .photo)
            #expect(resource.originalFilename == "IMG_0042.HEIC")
            #expect(resource.uniformTypeIdentifier == "public.heic")
            #expect(resource.data == jpegBytes)
            #expect(resource.size == jpegBytes.count)
            #expect(resource.sourceFileURL == nil)
            #expect(simulation.assets.first?.mediaType == .image)
        }

        @Test func generatedFilenameWhenNoneGiven() async throws {
            let simulation = authorizedSimulation()
            try await simulation.run {
                try await PHPhotoLibrary.shared().performChanges {
                    let options = PHAssetResourceCreationOptions()
                    options.uniformTypeIdentifier = "public.jpeg"
                    PHAssetCreationRequest.forAsset().addResource(with: .photo, data: jpegBytes, options: options)
                }
            }
            let resource = try #require(simulation.assets.first?.resources.first)
            #expect(resource.originalFilename == "IMG_0001.JPG")
            #expect(resource.uniformTypeIdentifier == "public.jpeg")
        }

        @Test func fileResourceIsCopiedAndNamedAfterTheFile() async throws {
            let directory = try TemporaryDirectory()
            let file = try directory.file("beach.jpg")
            let simulation = authorizedSimulation()
            try await simulation.run {
                try await PHPhotoLibrary.shared().performChanges {
                    PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: file)
                }
            }
            let resource = try #require(simulation.assets.first?.resources.first)
            #expect(resource.originalFilename == "beach.jpg")
            #expect(resource.sourceFileURL == file)
            #expect(resource.data == (try Data(contentsOf: file)))
            #expect(!resource.movedSourceFile)
            #expect(FileManager.default.fileExists(atPath: file.path))
        }

        @Test func videoFromFileIsAVideoAsset() async throws {
            let directory = try TemporaryDirectory()
            let file = try directory.file("clip.mov", bytes: Array(movieBytes))
            let simulation = authorizedSimulation()
            try await simulation.run {
                try await PHPhotoLibrary.shared().performChanges {
                    PHAssetCreationRequest.creationRequestForAssetFromVideo(atFileURL: file)
                }
            }
            let asset = try #require(simulation.assets.first)
            #expect(asset.mediaType == .video)
            #expect(asset.resources.map(\.type) == [.video])
            #expect(asset.resources.first?.uniformTypeIdentifier == "com.apple.quicktime-movie")
        }

        @Test func livePhotoHasPhotoAndPairedVideo() async throws {
            let directory = try TemporaryDirectory()
            let photo = try directory.file("IMG_0001.HEIC")
            let video = try directory.file("IMG_0001.MOV", bytes: Array(movieBytes))
            let simulation = authorizedSimulation()
            try await simulation.run {
                try await PHPhotoLibrary.shared().performChanges {
                    let creation = PHAssetCreationRequest.forAsset()
                    creation.addResource(with: .photo, fileURL: photo, options: nil)
                    creation.addResource(with: .pairedVideo, fileURL: video, options: nil)
                }
                let asset = try #require(PHAsset.fetchAssets(with: nil).firstObject)
                #expect(asset.mediaSubtypes.contains(.photoLive))
            }
            let asset = try #require(simulation.assets.first)
            #expect(asset.mediaType == .image)
            #expect(asset.mediaSubtypes == .photoLive)
            #expect(asset.resources.map(\.type) == [.photo, .pairedVideo])
            #expect(asset.resources.map(\.originalFilename) == ["IMG_0001.HEIC", "IMG_0001.MOV"])
        }

        @Test func shouldMoveFileRemovesSourceOnlyAfterSuccess() async throws {
            let directory = try TemporaryDirectory()
            let file = try directory.file("move.jpg")
            let simulation = authorizedSimulation()
            let options = PHAssetResourceCreationOptions()
            options.shouldMoveFile = true

            simulation.failNextCommit(with: .notEnoughSpace)
            let failed = await simulation.run {
                await simulation.perform {
                    PHAssetCreationRequest.forAsset().addResource(with: .photo, fileURL: file, options: options)
                }
            }
            #expect(failed.code == .notEnoughSpace)
            #expect(FileManager.default.fileExists(atPath: file.path))

            let succeeded = await simulation.run {
                await simulation.perform {
                    PHAssetCreationRequest.forAsset().addResource(with: .photo, fileURL: file, options: options)
                }
            }
            #expect(succeeded.success)
            #expect(!FileManager.default.fileExists(atPath: file.path))
            #expect(simulation.assets.first?.resources.first?.movedSourceFile == true)
            #expect(simulation.assets.first?.resources.first?.data.isEmpty == false)
        }

        @Test func movingAHardLinkedFileFails() async throws {
            let directory = try TemporaryDirectory()
            let file = try directory.file("linked.jpg")
            try FileManager.default.linkItem(at: file, to: directory.url.appendingPathComponent("other.jpg"))
            let simulation = authorizedSimulation()
            let completion = await simulation.run {
                await simulation.perform {
                    let options = PHAssetResourceCreationOptions()
                    options.shouldMoveFile = true
                    PHAssetCreationRequest.forAsset().addResource(with: .photo, fileURL: file, options: options)
                }
            }
            #expect(completion.code == .invalidResource)
            #expect(FileManager.default.fileExists(atPath: file.path))
        }

        @Test func invalidResourcesFailTheBlockAtCommit() async throws {
            let directory = try TemporaryDirectory()
            let empty = try directory.file("empty.jpg", bytes: [])
            let missing = directory.url.appendingPathComponent("missing.jpg")
            let cases: [(String, () -> Void)] = [
                (
                    "empty data",
                    { PHAssetCreationRequest.forAsset().addResource(with: .photo, data: Data(), options: nil) }
                ),
                (
                    "empty file",
                    { PHAssetCreationRequest.forAsset().addResource(with: .photo, fileURL: empty, options: nil) }
                ),
                ("missing file", { PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: missing) }),
                (
                    "directory",
                    {
                        PHAssetCreationRequest.forAsset().addResource(
                            with: .photo, fileURL: directory.url, options: nil)
                    }
                ),
                (
                    "paired video alone",
                    {
                        PHAssetCreationRequest.forAsset().addResource(
                            with: .pairedVideo, data: movieBytes, options: nil)
                    }
                ),
                (
                    "photo and video",
                    {
                        let request = PHAssetCreationRequest.forAsset()
                        request.addResource(with: .photo, data: jpegBytes, options: nil)
                        request.addResource(with: .video, data: movieBytes, options: nil)
                    }
                ),
            ]
            let simulation = authorizedSimulation()
            for (name, block) in cases {
                let completion = await simulation.run { await simulation.perform(block) }
                #expect(completion.code == .invalidResource, "\(name)")
                #expect(completion.nsError?.code == 3302, "\(name)")
            }
            #expect(simulation.assets.isEmpty)
        }

        @Test func creationRequestWithoutResourcesIsMissingResource() async {
            let simulation = authorizedSimulation()
            let completion = await simulation.run {
                await simulation.perform { PHAssetCreationRequest.forAsset() }
            }
            #expect(completion.code == .missingResource)
        }

        @Test func nonFileURLGivesNoRequest() async {
            let simulation = authorizedSimulation()
            let results = Recorder<Bool>()
            _ = await simulation.run {
                await simulation.perform {
                    let url = URL(string: "https://example.com/a.jpg")!
                    results.append(PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: url) == nil)
                    results.append(PHAssetChangeRequest.creationRequestForAssetFromVideo(atFileURL: url) == nil)
                }
            }
            #expect(results.values == [true, true])
        }

        @Test func supportedResourceCombinations() {
            func supports(_ types: [PHAssetResourceType]) -> Bool {
                PHAssetCreationRequest.supportsAssetResourceTypes(types.map { NSNumber(value: $0.rawValue) })
            }
            #expect(supports([.photo]))
            #expect(supports([.video]))
            #expect(supports([.photo, .pairedVideo]))
            #expect(supports([.photo, .alternatePhoto]))
            #expect(supports([.video, .fullSizeVideo, .adjustmentData]))
            #expect(!supports([]))
            #expect(!supports([.pairedVideo]))
            #expect(!supports([.photo, .video]))
            #expect(!supports([.photo, .photo]))
            #expect(!supports([.video, .pairedVideo]))
            #expect(!PHAssetCreationRequest.supportsAssetResourceTypes([NSNumber(value: 99)]))
        }
    }
#endif
