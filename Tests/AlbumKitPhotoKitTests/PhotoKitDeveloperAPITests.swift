#if !canImport(ObjectiveC)
    import AlbumKitCore
    import Foundation
    import PhotoKitSimulator
    import Testing

    @testable import AlbumKitPhotoKit

    /// What an app developer uses around the save, on the PhotoKit path: access as its own step,
    /// descriptions of saved assets, full listings with filters, and change observation.
    @Suite struct PhotoKitDeveloperAPITests {
        // MARK: Access

        @Test func accessIsReportedWithoutPromptingAndRequestedOnce() async throws {
            let h = PhotoKitHarness(answering: .limited)
            try await h.run { () async throws in
                #expect(try await h.library.access(for: .readWrite) == .notDetermined)
                #expect(try await h.library.access(for: .addOnly) == .notDetermined)
                #expect(h.simulation.authorizationPromptCount == 0)
                #expect(try await h.library.requestAccess(for: .readWrite) == .limited)
                #expect(try await h.library.requestAccess(for: .readWrite) == .limited)
                // Limited read-write access includes adding.
                #expect(try await h.library.access(for: .addOnly) == .authorized)
            }
            #expect(h.simulation.authorizationPrompts == [.readWrite])
        }

        @Test(arguments: [
            (PHAuthorizationStatus.denied, PhotoLibraryAccess.denied),
            (.restricted, .restricted), (.authorized, .authorized), (.limited, .limited),
        ])
        func everyStatusIsReportedAsItsAccess(status: PHAuthorizationStatus, access: PhotoLibraryAccess)
            async throws
        {
            let h = PhotoKitHarness()
            h.simulation.setAuthorizationStatus(status, for: .readWrite)
            let reported = try await h.run { try await h.library.access(for: .readWrite) }
            #expect(reported == access)
            #expect(reported.isGranted == (access == .authorized || access == .limited))
            #expect(!reported.canPrompt)
        }

        @Test func addOnlyAccessAloneLetsTheAppAddButNotUseAlbums() async throws {
            let h = PhotoKitHarness()
            h.simulation.setAuthorizationStatus(.denied, for: .readWrite)
            h.simulation.setAuthorizationStatus(.authorized, for: .addOnly)
            try await h.run {
                #expect(try await h.library.access(for: .addOnly) == .authorized)
                #expect(try await h.library.access(for: .readWrite) == .denied)
                let skipped = try await h.library.album(
                    titled: "Trips", accessPolicy: .saveToLibraryWhenAlbumUnavailable
                )
                .save(.file(PhotoKitHarness.jpeg))
                guard case .skipped = skipped.albumOutcome else {
                    Issue.record("expected skipped, got \(String(describing: skipped.albumOutcome))")
                    return
                }
            }
            #expect(h.simulation.assets.count == 1)
            #expect(h.simulation.albums.isEmpty)
        }

        // MARK: Descriptions of saved assets

        @Test func creationDateLocationAndFavouriteGoIntoTheCreationRequest() async throws {
            let h = PhotoKitHarness()
            let taken = Date(timeIntervalSince1970: 1_700_000_000)
            let place = GeoLocation(latitude: 46.2044, longitude: 6.1432, altitude: 375)
            let saved = try await h.run {
                try await h.library.album(titled: "Trips").save(
                    .file(PhotoKitHarness.jpeg).with(creationDate: taken, location: place, isFavorite: true))
            }
            let asset = try #require(h.simulation.asset(withLocalIdentifier: saved.assetID))
            #expect(asset.creationDate == taken)
            #expect(asset.location?.coordinate.latitude == 46.2044)
            #expect(asset.location?.coordinate.longitude == 6.1432)
            #expect(asset.location?.altitude == 375)
            #expect(asset.isFavorite)
            // Listed back the same way.
            let listed = try #require(try await h.run { try await h.library.assets(inAlbumTitled: "Trips") }.first)
            #expect(listed.capturedAt == taken)
            #expect(listed.location == place)
            #expect(listed.isFavorite)
            #expect(listed.dateAdded == nil)
        }

        @Test func aFileTheAppOwnsIsMovedIntoPhotosOnlyWhenTheSaveSucceeds() async throws {
            let h = PhotoKitHarness()
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("move-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let video = directory.appendingPathComponent("clip.mp4")
            try FileManager.default.copyItem(at: PhotoKitHarness.video, to: video)

            h.simulation.failNextCommit(with: .notEnoughSpace)
            await #expect(throws: AlbumError.self) {
                try await h.run { try await h.library.save(.file(video).with(movesFile: true)) }
            }
            #expect(FileManager.default.fileExists(atPath: video.path), "a failed save leaves the file")

            let saved = try await h.run { try await h.library.save(.file(video).with(movesFile: true)) }
            #expect(!FileManager.default.fileExists(atPath: video.path), "moved, not copied")
            let resource = try #require(h.simulation.asset(withLocalIdentifier: saved.assetID)?.resources.first)
            #expect(resource.movedSourceFile)
            #expect(resource.originalFilename == "clip.mp4")
            #expect(resource.data == (try Data(contentsOf: PhotoKitHarness.video)))
        }

        @Test func aLocationOffEarthIsRefusedBeforeAnythingIsAsked() async throws {
            let h = PhotoKitHarness()
            let results = await h.run {
                await h.library.album(titled: "Trips").save([
                    .file(PhotoKitHarness.jpeg).with(location: GeoLocation(latitude: 91, longitude: 0)),
                    .file(PhotoKitHarness.heic).with(location: GeoLocation(latitude: .nan, longitude: 0)),
                ])
            }
            #expect(results.map { $0.error?.code } == [.invalidArgument, .invalidArgument])
            #expect(results.first?.error?.file == PhotoKitHarness.jpeg.path)
            #expect(h.simulation.authorizationPromptCount == 0)
            #expect(h.simulation.assets.isEmpty)
        }

        // MARK: Listings

        @Test func listingsCarryTheOriginalNamePixelSizeDurationAndDatesApart() async throws {
            let h = PhotoKitHarness()
            h.simulation.setAuthorizationStatus(.authorized, for: .readWrite)
            let filmed = Date(timeIntervalSince1970: 1_600_000_000)
            let id = h.simulation.userAddsAsset(
                mediaType: .video, creationDate: filmed,
                resources: [SimulatedResource(type: .video, originalFilename: "IMG_4711.MOV", data: Data([1, 2, 3]))],
                pixelWidth: 1920, pixelHeight: 1080, duration: 12.5)
            let saved = try await h.run { try await h.library.save(.file(PhotoKitHarness.jpeg)) }
            let page = try await h.run { try await h.library.assets(orderedBy: .captureDate, limit: 10) }
            #expect(page.assets.map(\.id) == [id, saved.assetID])
            let video = page.assets[0]
            #expect(video.originalFilename == "IMG_4711.MOV")
            #expect(video.kind == .video)
            #expect(video.pixelWidth == 1920 && video.pixelHeight == 1080)
            #expect(video.duration == 12.5)
            #expect(video.capturedAt == filmed)
            #expect(video.dateAdded == nil, "Photos publishes no date added")
            #expect(video.byteSize == nil)
            #expect(page.assets[1].originalFilename == "harbour.jpg")
            #expect(page.assets[1].duration == nil)
        }

        @Test func pagesAreFilteredByKindAndDateAcrossPages() async throws {
            let h = PhotoKitHarness()
            h.simulation.setAuthorizationStatus(.authorized, for: .readWrite)
            let day = 86_400.0
            let start = Date(timeIntervalSince1970: 1_600_000_000)
            var videos: [String] = []
            for index in 0..<10 {
                let id = h.simulation.userAddsAsset(
                    mediaType: index.isMultiple(of: 2) ? .video : .image,
                    creationDate: start.addingTimeInterval(Double(index) * day))
                if index.isMultiple(of: 2) { videos.append(id) }
            }
            let filter = AssetFilter(
                kinds: [.video], dates: start.addingTimeInterval(day)..<start.addingTimeInterval(8 * day))
            var seen: [String] = []
            var cursor: String?
            repeat {
                let page = try await h.run {
                    try await h.library.assets(orderedBy: .captureDate, matching: filter, after: cursor, limit: 2)
                }
                #expect(page.assets.count <= 2)
                seen += page.assets.map(\.id)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(seen == [videos[1], videos[2], videos[3]])  // days 2, 4 and 6; day 8 is past the range
            let photos = try await h.run { try await h.library.assets(matching: .photos, limit: 100) }
            #expect(photos.assets.count == 5)
            #expect(photos.nextCursor == nil)
        }

        // MARK: Changes

        @Test func changesArriveFromPhotosChangeObserver() async throws {
            let h = PhotoKitHarness()
            h.simulation.setAuthorizationStatus(.authorized, for: .readWrite)
            try await h.run {
                var changes = h.library.changes().makeAsyncIterator()
                // Let the observer register before anything changes.
                try await Self.waitForObservation(h)

                let saved = try await h.library.album(titled: "Trips").save(.file(PhotoKitHarness.jpeg))
                let first = try #require(try await changes.next())
                #expect(first.insertedAssetIDs == [saved.assetID])
                #expect(first.insertedAlbumIDs == [saved.albumID!])
                #expect(first.changedAlbumIDs.isEmpty)

                #expect(h.simulation.userDeletesAsset(withLocalIdentifier: saved.assetID))
                let second = try #require(try await changes.next())
                #expect(second.removedAssetIDs == [saved.assetID])
                #expect(second.changedAlbumIDs == [saved.albumID!])

                #expect(h.simulation.userRenamesAlbum(withLocalIdentifier: saved.albumID!, to: "Holidays"))
                let third = try #require(try await changes.next())
                #expect(third.changedAlbumIDs == [saved.albumID!])
                #expect(third.insertedAssetIDs.isEmpty && third.removedAlbumIDs.isEmpty)
            }
        }

        @Test func watchingWithoutReadAccessFailsWithAccessDenied() async throws {
            let h = PhotoKitHarness()
            h.simulation.setAuthorizationStatus(.authorized, for: .addOnly)
            await #expect(throws: AlbumError.self) {
                try await h.run {
                    for try await _ in h.library.changes() { Issue.record("no change can arrive") }
                }
            }
            #expect(h.simulation.authorizationPromptCount == 0)
        }

        @Test func stoppingTheSequenceUnregistersTheObserver() async throws {
            let h = PhotoKitHarness()
            h.simulation.setAuthorizationStatus(.authorized, for: .readWrite)
            try await h.run {
                let task = Task {
                    var count = 0
                    for try await _ in h.library.changes() { count += 1 }
                    return count
                }
                try await Self.waitForObservation(h)
                try await h.library.save(.file(PhotoKitHarness.jpeg))
                task.cancel()
                _ = try await task.value
            }
            // The observer is gone: a later change reaches no one (the simulator holds observers weakly,
            // and the sequence's end released it).
            #expect(h.simulation.registeredChangeObserverCount == 0)
        }

        /// Waits until an observer is registered with the simulated library.
        static func waitForObservation(_ h: PhotoKitHarness) async throws {
            for _ in 0..<500 where h.simulation.registeredChangeObserverCount == 0 {
                try await Task.sleep(for: .milliseconds(2))
            }
            try #require(h.simulation.registeredChangeObserverCount > 0)
        }
    }

#endif
