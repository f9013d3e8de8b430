#if !canImport(ObjectiveC)
    import Foundation
    import PhotoKitSimulator
    import Testing

    /// Fetches: snapshots, predicates on titles, sorting, limits, fetch-result API.
    @Suite("Fetching")
    struct FetchTests {
        @Test(arguments: ["title = %@", "title == %@", "localizedTitle = %@", "localizedTitle == %@", "%K == %@"])
        func predicateFetchByTitle(format: String) {
            let simulation = authorizedSimulation()
            let trips = simulation.userCreatesAlbum(titled: "Trips")
            simulation.userCreatesAlbum(titled: "Family")
            simulation.userCreatesAlbum(titled: "trips")
            simulation.run {
                let options = PHFetchOptions()
                options.predicate =
                    format.hasPrefix("%K")
                    ? NSPredicate(format: format, "title", "Trips")
                    : NSPredicate(format: format, "Trips")
                let result = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options)
                #expect(result.count == 1)
                #expect(result.firstObject?.localIdentifier == trips)
            }
        }

        @Test func predicateVariants() {
            let simulation = authorizedSimulation()
            let a = simulation.userCreatesAlbum(titled: "Trips")
            let b = simulation.userCreatesAlbum(titled: "TRIPS 2024")
            let c = simulation.userCreatesAlbum(titled: "Family")
            simulation.run {
                // Album fetches come in no set order: compare sets.
                func titles(_ predicate: NSPredicate) -> Set<String> {
                    let options = PHFetchOptions()
                    options.predicate = predicate
                    let result = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: options)
                    return Set((0..<result.count).map { result.object(at: $0).localIdentifier })
                }
                #expect(titles(NSPredicate(format: "title ==[c] %@", "trips")) == [a])
                #expect(titles(NSPredicate(format: "title BEGINSWITH[c] %@", "trips")) == [a, b])
                #expect(titles(NSPredicate(format: "title != %@", "Family")) == [a, b])
                #expect(titles(NSPredicate(format: "localIdentifier IN %@", argumentArray: [[a, c]])) == [a, c])
                #expect(titles(NSPredicate(format: "title CONTAINS %@ AND NOT (title = %@)", "i", "Family")) == [a])
                #expect(titles(NSPredicate(format: "title = 'Family' OR title = %@", "Trips")) == [a, c])
                #expect(titles(NSPredicate(format: "estimatedAssetCount == %d", 0)) == [a, b, c])
            }
        }

        /// Apple documents no order for album fetches: by default the simulator shuffles every
        /// fetch (so code cannot take the first match for the oldest); `.creation` keeps order.
        @Test func duplicateTitlesFetchInNoSetOrderUnlessAsked() {
            let simulation = authorizedSimulation()
            let ids = (0..<6).map { _ in simulation.userCreatesAlbum(titled: "Same") }
            simulation.run {
                var orders = Set<[String]>()
                for _ in 0..<20 {
                    let result = PHAssetCollection.fetchAssetCollections(
                        with: .album, subtype: .albumRegular, options: titled("Same"))
                    let order = (0..<result.count).map { result.object(at: $0).localIdentifier }
                    #expect(Set(order) == Set(ids))
                    orders.insert(order)
                }
                #expect(orders.count > 1)

                simulation.albumFetchOrder = .creation
                let result = PHAssetCollection.fetchAssetCollections(
                    with: .album, subtype: .albumRegular, options: titled("Same"))
                #expect((0..<result.count).map { result.object(at: $0).localIdentifier } == ids)
            }
        }

        @Test func fetchResultsAndObjectsAreSnapshots() async throws {
            let simulation = authorizedSimulation()
            let albumID = simulation.userCreatesAlbum(titled: "Before")
            try await simulation.run {
                let albums = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil)
                let album = try #require(albums.firstObject)
                #expect(album.estimatedAssetCount == 0)

                try await PHPhotoLibrary.shared().performChanges {
                    let change = PHAssetCollectionChangeRequest(for: album)!
                    change.title = "After"
                    let asset = PHAssetCreationRequest.forAsset()
                    asset.addResource(with: .photo, data: jpegBytes, options: nil)
                    change.addAssets([asset.placeholderForCreatedAsset!] as NSArray)
                    PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Another")
                }
                simulation.userRenamesAlbum(withLocalIdentifier: albumID, to: "Renamed by user")

                #expect(albums.count == 1)
                #expect(album.localizedTitle == "Before")
                #expect(album.estimatedAssetCount == 0)

                let refetched = try #require(
                    PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [albumID], options: nil).firstObject)
                #expect(refetched.localizedTitle == "Renamed by user")
                #expect(refetched.estimatedAssetCount == 1)
                #expect(refetched == album)
                #expect(PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).count == 2)
            }
        }

        @Test func fetchByLocalIdentifiersKeepsOrderAndSkipsUnknown() {
            let simulation = authorizedSimulation()
            let a = simulation.userCreatesAlbum(titled: "A")
            let b = simulation.userCreatesAlbum(titled: "B")
            simulation.run {
                let result = PHAssetCollection.fetchAssetCollections(
                    withLocalIdentifiers: [b, "nope/L0/040", a, b], options: nil)
                #expect(result.count == 2)
                #expect(result.object(at: 0).localIdentifier == b)
                #expect(result.object(at: 1).localIdentifier == a)
                #expect(PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [], options: nil).count == 0)
            }
        }

        @Test func assetsInAlbumOrderSortedAndLimited() {
            let simulation = authorizedSimulation()
            let old = simulation.userAddsAsset(creationDate: Date(timeIntervalSince1970: 100))
            let new = simulation.userAddsAsset(mediaType: .video, creationDate: Date(timeIntervalSince1970: 300))
            let mid = simulation.userAddsAsset(creationDate: Date(timeIntervalSince1970: 200))
            let albumID = simulation.userCreatesAlbum(titled: "Mixed", assetLocalIdentifiers: [new, old, mid])
            simulation.run {
                let album = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [albumID], options: nil)
                    .firstObject!
                let inAlbum = PHAsset.fetchAssets(in: album, options: nil)
                #expect(inAlbum.objects(at: IndexSet(0..<3)).map(\.localIdentifier) == [new, old, mid])
                #expect(inAlbum.countOfAssets(with: .video) == 1)

                let options = PHFetchOptions()
                options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
                options.fetchLimit = 2
                let newest = PHAsset.fetchAssets(in: album, options: options)
                #expect(newest.count == 2)
                #expect(newest.object(at: 0).localIdentifier == new)
                #expect(newest.object(at: 1).localIdentifier == mid)

                #expect(PHAsset.fetchAssets(with: .image, options: nil).count == 2)
                let containing = PHAssetCollection.fetchAssetCollectionsContaining(
                    inAlbum.object(at: 0), with: .album, options: nil)
                #expect(containing.firstObject?.localIdentifier == albumID)
            }
        }

        @Test func hiddenAssetsNeedTheOption() {
            let simulation = authorizedSimulation()
            let hidden = simulation.userAddsAsset(isHidden: true)
            simulation.userAddsAsset()
            simulation.run {
                #expect(PHAsset.fetchAssets(with: nil).count == 1)
                let options = PHFetchOptions()
                options.includeHiddenAssets = true
                #expect(PHAsset.fetchAssets(with: options).count == 2)
                #expect(PHAsset.fetchAssets(withLocalIdentifiers: [hidden], options: nil).count == 1)
            }
        }

        @Test func recentsSmartAlbum() {
            let simulation = authorizedSimulation()
            let asset = simulation.userAddsAsset()
            simulation.userCreatesAlbum(titled: "User")
            simulation.run {
                let smart = PHAssetCollection.fetchAssetCollections(
                    with: .smartAlbum, subtype: .smartAlbumUserLibrary, options: nil)
                let recents = smart.firstObject!
                #expect(smart.count == 1)
                #expect(recents.localIdentifier == simulation.recentsLocalIdentifier)
                #expect(recents.assetCollectionType == .smartAlbum)
                #expect(recents.estimatedAssetCount == NSNotFound)
                #expect(PHAsset.fetchAssets(in: recents, options: nil).firstObject?.localIdentifier == asset)
                let regular = PHAssetCollection.fetchAssetCollections(
                    with: .album, subtype: .albumRegular, options: nil
                ).firstObject!
                #expect(regular.assetCollectionSubtype == .albumRegular)
                #expect(regular.canPerform(.addContent))
                #expect(PHCollection.fetchTopLevelUserCollections(with: nil).count == 1)
            }
        }

        @Test func fetchResultAPI() {
            let simulation = authorizedSimulation()
            let ids = (0..<4).map { simulation.userCreatesAlbum(titled: "Album \($0)") }
            simulation.albumFetchOrder = .creation
            simulation.run {
                let result = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil)
                #expect(result.count == 4)
                #expect(result[2].localIdentifier == ids[2])
                #expect(result.contains(result.object(at: 1)))
                #expect(result.index(of: result.object(at: 3)) == 3)

                var visited: [Int] = []
                result.enumerateObjects { _, index, stop in
                    visited.append(index)
                    if index == 1 { stop.pointee = true }
                }
                #expect(visited == [0, 1])

                var reversed: [String] = []
                result.enumerateObjects(options: .reverse) { collection, _, _ in
                    reversed.append(collection.localIdentifier)
                }
                #expect(reversed == ids.reversed())

                let empty = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: ["x"], options: nil)
                #expect(empty.firstObject == nil)
                #expect(empty.lastObject == nil)
                #expect(empty.index(of: result.object(at: 0)) == NSNotFound)
            }
        }

        @Test func fetchResultIsFastEnumerable() async throws {
            let simulation = authorizedSimulation()
            simulation.userAddsAsset()
            simulation.userAddsAsset()
            try await simulation.run {
                let assets = PHAsset.fetchAssets(with: nil)
                try await PHPhotoLibrary.shared().performChanges {
                    let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "All")
                    album.addAssets(assets)
                }
            }
            #expect(simulation.albums.first?.assetLocalIdentifiers == simulation.assets.map(\.localIdentifier))
        }
    }
#endif
