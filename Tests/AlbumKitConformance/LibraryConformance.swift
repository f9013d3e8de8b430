#if canImport(Testing)
    import AlbumKitCore
    import Foundation
    import Testing

    /// The behaviour every library promises, checked through the public API against one kind
    /// (``LibraryKind``). Where a kind differs by design, the behaviour reads the kind's property
    /// and checks what it does instead. Each kind's test target runs every behaviour
    /// (``LibraryConformanceSuite``).
    ///
    /// ```
    /// try await LibraryConformance(.catalog).renameKeepsTheID()
    /// ```
    public struct LibraryConformance: Sendable {
        /// The kind checked.
        public let kind: LibraryKind

        public init(_ kind: LibraryKind) { self.kind = kind }

        public func firstSaveCreatesTheAlbumAndTheNextFindsIt() async throws {
            try await kind.withLibrary { fixture in
                let album = fixture.library.album(titled: "Trips")
                let first = try await album.save(.file(try fixture.uniqueJPEG("one")))
                let second = try await album.save(.file(try fixture.uniqueJPEG("two")))
                #expect(first.albumOutcome == .created)
                #expect(second.albumOutcome == .found)
                #expect(first.albumID == second.albumID)
                let albums = try await fixture.library.albums()
                #expect(albums.map(\.title) == ["Trips"])
                #expect(albums.map(\.count) == [2])
                let listed = try await fixture.library.assets(inAlbumTitled: "Trips")
                #expect(listed.map(\.originalFilename) == ["one.jpg", "two.jpg"])
                #expect(listed.map(\.id) == [first.assetID, second.assetID])
                let info = try await fixture.library.albumInfo(withID: try #require(first.albumID))
                #expect(info.title == "Trips" && info.count == 2)
            }
        }

        public func albumTitlesAreTheAlbumsTitlesInTheirOrder() async throws {
            try await kind.withLibrary { fixture in
                #expect(try await fixture.library.albumTitles().isEmpty)
                for title in ["Zebra", "Apple", "Mango"] {
                    _ = try await fixture.library.album(titled: title).save(.file(try fixture.uniqueJPEG(title)))
                }
                let empty = try await fixture.library.createAlbum(titled: "Empty")
                #expect(empty.title == "Empty" && empty.count == 0)
                // Created again: the same album, found.
                #expect(try await fixture.library.createAlbum(titled: "Empty").id == empty.id)
                let titles = try await fixture.library.albumTitles()
                #expect(Set(titles) == ["Zebra", "Apple", "Mango", "Empty"])
                #expect(titles == (try await fixture.library.albums().map(\.title)))
            }
        }

        public func fiftyConcurrentSavesIntoAMissingAlbumMakeExactlyOne() async throws {
            try await kind.withLibrary { fixture in
                let files = try (0..<50).map { try fixture.uniqueJPEG("photo\($0)") }
                let library = fixture.library
                let saved = try await withThrowingTaskGroup(of: SavedAsset.self) { group in
                    for file in files {
                        group.addTask { try await library.album(titled: "Party").save(.file(file)) }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(saved.count == 50)
                #expect(Set(saved.compactMap(\.albumID)).count == 1)
                #expect(saved.filter { $0.albumOutcome == .created }.count == 1)
                let albums = try await library.albums()
                #expect(albums.map(\.title) == ["Party"])
                #expect(albums.first?.count == 50)
            }
        }

        public func anAlbumDeletedBehindItsBackIsRecreated() async throws {
            try await kind.withLibrary { fixture in
                let album = fixture.library.album(titled: "Gone")
                let first = try await album.save(.file(try fixture.uniqueJPEG("one")))
                // Another program, app or part of the app deletes the album (for a folder library,
                // the user removes its folder in a file manager).
                try await fixture.deleteAlbumBehindItsBack("Gone", fixture)
                let again = try await album.save(.file(try fixture.uniqueJPEG("two")))
                #expect(again.albumOutcome == .recreated)
                #expect(again.albumID != nil && again.albumID != first.albumID)
                #expect(try await fixture.library.albums().map(\.title) == ["Gone"])
                #expect(try await fixture.library.assets(inAlbumTitled: "Gone").count == 1)
                // The library still holds the first photo, unless the album held it.
                #expect(try await fixture.library.verify().checkedAssets == (kind.albumsHoldTheirPhotos ? 1 : 2))
            }
        }

        public func aRenamedAlbumKeepsItsIDAndADeletedOneIsMadeAgain() async throws {
            try await kind.withLibrary { fixture in
                let first = try await fixture.library.album(titled: "Trips").save(
                    .file(try fixture.uniqueJPEG("one")))
                let id = try #require(first.albumID)
                try await fixture.library.renameAlbum(withID: id, to: "Holidays")
                let renamed = try await fixture.library.album(titled: "Holidays").save(
                    .file(try fixture.uniqueJPEG("two")))
                #expect(renamed.albumID == id && renamed.albumOutcome == .found)
                try await fixture.library.deleteAlbum(withID: id, force: true)
                let again = try await fixture.library.album(titled: "Holidays").save(
                    .file(try fixture.uniqueJPEG("three")))
                #expect(again.albumID != id)
                #expect(again.albumOutcome == (kind.remembersDeletedAlbums ? .recreated : .created))
            }
        }

        public func duplicateTitlesResolveToTheOldest() async throws {
            try await kind.withLibrary { fixture in
                // Through the API `createAlbum` finds the existing album (every kind), so the
                // duplicates are written straight into the store, as another app would.
                _ = try await fixture.library.createAlbum(titled: "Other")  // the catalog is made lazily
                let twins = try await fixture.makeTwinAlbums(fixture)
                for label in ["x", "y", "z"] {
                    let saved = try await fixture.reopen().album(titled: "Twins").save(
                        .file(try fixture.uniqueJPEG(label)))
                    #expect(saved.albumID == twins.older && saved.albumOutcome == .found)
                }
                let listed = try await fixture.library.albums().filter { $0.title.lowercased() == "twins" }
                #expect(listed.map(\.id) == [twins.older] + (twins.newer.map { [$0] } ?? []))
                #expect(listed.first?.count == twins.photosInOlder + 3)
            }
        }

        public func aBadFileFailsAloneAndTheRestOfTheBatchSaves() async throws {
            try await kind.withLibrary { fixture in
                let text = fixture.directory.appendingPathComponent("notes.jpg")
                try Data("just some words, not a photo".utf8).write(to: text)
                let truncated = fixture.directory.appendingPathComponent("cut.jpg")
                let whole = try Data(contentsOf: Fixture.examples.appendingPathComponent("harbour.jpg"))
                try whole.prefix(whole.count / 3).write(to: truncated)
                let missing = fixture.directory.appendingPathComponent("missing.jpg")
                let good = try fixture.uniqueJPEG("good")
                let other = try fixture.uniqueJPEG("other")
                let results = await fixture.library.album(titled: "Mixed").save([
                    .file(good), .file(text), .file(truncated), .file(missing),
                    .data(Data("not a photo".utf8), filename: "fake.jpg"), .file(other),
                ])
                #expect(
                    results.map { $0.error?.code } == [
                        nil, .notMedia, .corruptMedia, .fileNotFound, .notMedia, nil,
                    ])
                #expect(try await fixture.library.assets(inAlbumTitled: "Mixed").count == 2)
                #expect(try await fixture.library.verify().isHealthy)
            }
        }

        /// A photo a camera left empty is a photo lost, in every kind: damaged, named with its cause.
        public func anEmptyPhotoIsDamagedNamingItsCause() async throws {
            try await kind.withLibrary { fixture in
                let empty = fixture.directory.appendingPathComponent("IMG_0203.JPG")
                try Data().write(to: empty)
                let notes = fixture.directory.appendingPathComponent("notes.txt")
                try Data().write(to: notes)
                let results = await fixture.library.album(titled: "Card").save([
                    .file(empty), .file(notes), .file(try fixture.uniqueJPEG("good")),
                ])
                #expect(results.map { $0.error?.code } == [.corruptMedia, .notMedia, nil])
                #expect(
                    results[0].error?.message.hasSuffix(
                        "IMG_0203.JPG: empty file (0 bytes). Nothing was saved for it.") == true)
            }
        }

        public func identicalBytesAreStoredAsTheyCame() async throws {
            try await kind.withLibrary { fixture in
                let file = try fixture.uniqueJPEG("same")
                let first = try await fixture.library.album(titled: "A").save(.file(file))
                let second = try await fixture.library.album(titled: "A").save(.file(file))
                #expect(!first.isExisting)
                let assets = try await fixture.library.assets(inAlbumTitled: "A")
                let expected = try Fixture.sha256(ofFileAt: file)
                if kind.storesIdenticalBytesOnce {
                    #expect(second.isExisting && second.assetID == first.assetID)
                    #expect(assets.count == 1)
                    // What is stored is the input, byte for byte.
                    #expect(
                        try await fixture.storedSHA256(of: try #require(assets.first), album: "A") == expected)
                } else {
                    // Photos makes an asset for every creation request: two, each the input.
                    #expect(!second.isExisting && second.assetID != first.assetID)
                    #expect(Set(assets.map(\.id)) == [first.assetID, second.assetID])
                    for asset in assets {
                        #expect(try await fixture.storedSHA256(of: asset, album: "A") == expected)
                    }
                }
                #expect(assets.map(\.sha256) == assets.map { _ in kind.listsChecksums ? expected : nil })
                let verification = try await fixture.library.verify()
                #expect(verification.isHealthy && verification.checkedAssets == assets.count)
            }
        }

        public func renameKeepsTheID() async throws {
            try await kind.withLibrary { fixture in
                let saved = try await fixture.library.album(titled: "Old").save(.file(try fixture.uniqueJPEG("r")))
                try await fixture.library.renameAlbum(titled: "Old", to: "New")
                let info = try await fixture.library.albumInfo(titled: "New")
                #expect(info.id == saved.albumID)
                #expect(try await fixture.library.albums().map(\.title) == ["New"])
                #expect(try await fixture.library.assets(inAlbumTitled: "New").count == 1)
                if kind.formerTitleLeadsToRenamedAlbum {
                    #expect(try await fixture.library.albumInfo(titled: "Old").id == saved.albumID)
                } else {
                    #expect(
                        await Fixture.errorCode { try await fixture.library.albumInfo(titled: "Old") } == .albumNotFound
                    )
                }
            }
        }

        public func invalidTitlesAreRefused() async throws {
            try await kind.withLibrary { fixture in
                let file = try fixture.uniqueJPEG("t")
                for title in ["", "   ", "a\u{0}b"] {
                    #expect(
                        await Fixture.errorCode { try await fixture.library.album(titled: title).save(.file(file)) }
                            == .invalidAlbumTitle, "\(title.debugDescription)")
                    #expect(
                        await Fixture.errorCode { try await fixture.library.createAlbum(titled: title) }
                            == .invalidAlbumTitle, "\(title.debugDescription)")
                }
                #expect(try await fixture.library.albums().isEmpty)
            }
        }

        public func assetsAreAddedAndRemovedAndEmptyAlbumsDeleted() async throws {
            try await kind.withLibrary { fixture in
                let saved = try await fixture.library.album(titled: "A").save(.file(try fixture.uniqueJPEG("a")))
                let other = try await fixture.library.createAlbum(titled: "B")
                let added = try await fixture.library.addAssets(withIDs: [saved.assetID], toAlbumWithID: other.id)
                #expect(added.count == 1)
                #expect(try await fixture.library.assets(inAlbumTitled: "B").count == 1)
                #expect(try await fixture.library.albumInfo(withID: other.id).count == 1)
                try await fixture.library.removeAssets(withIDs: [saved.assetID], fromAlbumTitled: "A")
                #expect(try await fixture.library.assets(inAlbumTitled: "A").isEmpty)
                try await fixture.library.deleteAlbum(titled: "A")
                #expect(try await fixture.library.albums().map(\.title) == ["B"])
                #expect(
                    await Fixture.errorCode { try await fixture.library.albumInfo(withID: saved.albumID!) }
                        == .albumNotFound)
                #expect(try await fixture.library.verify().isHealthy)
            }
        }

        public func everyLibraryAnswersAccessAndPagesWithFilters() async throws {
            try await kind.withLibrary { fixture in
                #expect(try await fixture.library.requestAccess(for: .readWrite).isGranted)
                #expect(try await fixture.library.access(for: .addOnly) == .authorized)
                let examples = Fixture.examples
                try await fixture.library.save(.file(fixture.uniqueJPEG("harbour")))
                try await fixture.library.save(.file(examples.appendingPathComponent("clip.mp4")))
                try await fixture.library.save(.file(examples.appendingPathComponent("sky.heic")))
                let videos = try await fixture.library.assets(orderedBy: .dateAdded, matching: .videos, limit: 10)
                #expect(videos.assets.map(\.kind) == [.video])
                #expect(videos.assets.first?.duration.map { $0 > 0 } == (kind.listsVideoDurations ? true : nil))
                var photos: [String?] = []
                var cursor: String?
                repeat {
                    let page = try await fixture.library.assets(matching: .photos, after: cursor, limit: 1)
                    photos += page.assets.map(\.originalFilename)
                    cursor = page.nextCursor
                } while cursor != nil
                #expect(Set(photos) == ["harbour.jpg", "sky.heic"])
                #expect(photos.count == 2)
                let none = try await fixture.library.assets(
                    matching: AssetFilter(dates: Date.distantPast..<Date(timeIntervalSince1970: 0)), limit: 10)
                #expect(none.assets.isEmpty && none.nextCursor == nil)
            }
        }

        public func changesReportWhatTheAppAndOthersDo() async throws {
            try await kind.withLibrary { fixture in
                // The catalog exists before the other handle opens it.
                _ = try await fixture.library.createAlbum(titled: "First")
                let changes = ChangeCollector(fixture.library.changes(interval: .milliseconds(50)))
                defer { changes.stop() }
                // The feed reports what changes after its first reading of the library, which happens
                // in the background and, on a busy machine, may come seconds later (a save before it is
                // part of the state it starts from): a photo is saved into a new album until one is
                // heard, each waited for 10 s.
                try await Task.sleep(for: .seconds(2))
                // The albums and assets inserted until `saved`'s album and photo are both told: they
                // may come as one change or two (a library read at intervals can read between the
                // album's creation and the photo's save).
                func insertions(until saved: SavedAsset, waiting limit: Duration) async -> (
                    albums: [String], assets: [String]
                ) {
                    var albums: [String] = []
                    var assets: [String] = []
                    while !(albums.contains(saved.albumID!) && assets.contains(saved.assetID)),
                        let change = await changes.wait(
                            limit: limit, { !$0.insertedAssetIDs.isEmpty || !$0.insertedAlbumIDs.isEmpty })
                    {
                        albums += change.insertedAlbumIDs
                        assets += change.insertedAssetIDs
                    }
                    return (albums, assets)
                }
                var heard: (saved: SavedAsset, albums: [String], assets: [String])?
                for attempt in 1...30 where heard == nil {
                    let saved = try await fixture.library.album(titled: "Trips \(attempt)").save(
                        .file(try fixture.uniqueJPEG("mine \(attempt)")))
                    let (albums, assets) = await insertions(until: saved, waiting: .seconds(10))
                    // A save while the feed starts is part of its starting point (never told), or
                    // told after it: the next one is waited for.
                    if albums.contains(saved.albumID!) && assets.contains(saved.assetID) {
                        heard = (saved, albums, assets)
                    }
                }
                let (saved, albums, assets) = try #require(heard, "no save was reported in 30 tries")
                #expect(albums == [saved.albumID!])
                #expect(assets == [saved.assetID])
                try await fixture.library.renameAlbum(withID: saved.albumID!, to: "Holidays")
                let renamed = await changes.wait(limit: .seconds(60)) { !$0.changedAlbumIDs.isEmpty }
                #expect(renamed?.changedAlbumIDs == [saved.albumID!])
                // Another handle (another process, app or part of the app) saves: reported too.
                let theirs = try await fixture.reopen().album(titled: "Elsewhere").save(
                    .file(try fixture.uniqueJPEG("theirs")))
                let (theirAlbums, theirAssets) = await insertions(until: theirs, waiting: .seconds(60))
                #expect(theirAlbums == [theirs.albumID!])
                #expect(theirAssets == [theirs.assetID])
            }
        }

        public func descriptionsGivenWhenSavingAreKept() async throws {
            try await kind.withLibrary { fixture in
                let owned = try fixture.uniqueJPEG("owned")
                let when = Date(timeIntervalSince1970: 1_500_000_000)
                let place = GeoLocation(latitude: -33.86, longitude: 151.21)
                let saved = try await fixture.library.album(titled: "Given").save(
                    .file(owned).with(creationDate: when, location: place, isFavorite: true, movesFile: true))
                #expect(FileManager.default.fileExists(atPath: owned.path) == !kind.movesFiles)
                let asset = try #require(try await fixture.library.assets(inAlbumTitled: "Given").first)
                #expect(asset.id == saved.assetID)
                if kind.keepsGivenDescriptions {
                    #expect(asset.capturedAt == when && asset.location == place && asset.isFavorite)
                } else {
                    // What the file itself says (its EXIF date and position), not what was given.
                    #expect(asset.capturedAt != nil && asset.capturedAt != when)
                    #expect(asset.location != nil && asset.location != place)
                    #expect(!asset.isFavorite)
                }
                #expect(asset.kind == .photo)
            }
        }
        /// A place in an album (``PhotoLibrary/assets(inAlbumWithID:orderedBy:at:limit:)``) answers
        /// what the album's pages after a cursor give at that place, in its own order and by capture
        /// date, with gaps left by removed assets; the album's stream lists it whole.
        public func positionsInAnAlbumAnswerAsItsPages() async throws {
            try await kind.withLibrary { fixture in
                let album = fixture.library.album(titled: "Places")
                var saved: [String] = []
                for n in 0..<7 {
                    // Taken in the reverse order of saving where the kind keeps what is given.
                    let taken = Date(timeIntervalSince1970: 1_600_000_000 - Double(n) * 3_600)
                    saved.append(
                        try await album.save(.file(try fixture.uniqueJPEG("place-\(n)")).with(creationDate: taken))
                            .assetID)
                }
                let id = try await fixture.library.albumInfo(titled: "Places").id
                try await fixture.library.removeAssets(withIDs: [saved[2], saved[5]], fromAlbumWithID: id)
                var inOrder: [String] = []
                var cursor: String?
                repeat {
                    let page = try await fixture.library.assets(inAlbumWithID: id, after: cursor, limit: 2)
                    inOrder += page.assets.map(\.id)
                    cursor = page.nextCursor
                } while cursor != nil
                var byTaken: [String] = []
                cursor = nil
                repeat {
                    let page = try await fixture.library.assets(
                        orderedBy: .captureDate, matching: AssetFilter(albumID: id), after: cursor, limit: 2)
                    byTaken += page.assets.map(\.id)
                    cursor = page.nextCursor
                } while cursor != nil
                #expect(inOrder.count == 5 && Set(byTaken) == Set(inOrder))
                for (order, expected) in [(AssetOrder.dateAdded, inOrder), (.captureDate, byTaken)] {
                    for limit in [1, 2, 3, 10] {
                        for position in 0...expected.count + 1 {
                            let slice = try await fixture.library.assets(
                                inAlbumWithID: id, orderedBy: order, at: position, limit: limit)
                            let wanted = Array(expected.dropFirst(position).prefix(limit))
                            #expect(slice.assets.map(\.id) == wanted, "\(order) at \(position), \(limit)")
                            #expect(slice.position == position && slice.albumCount == expected.count)
                        }
                    }
                }
                var streamed: [String] = []
                for try await asset in fixture.library.allAssets(inAlbumWithID: id, pageSize: 2) {
                    streamed.append(asset.id)
                }
                #expect(streamed == inOrder)
                #expect(
                    await Fixture.errorCode { try await fixture.library.assets(inAlbumWithID: id, at: -1, limit: 5) }
                        == .invalidArgument)
                #expect(
                    await Fixture.errorCode { try await fixture.library.assets(inAlbumWithID: id, at: 0, limit: 0) }
                        == .invalidArgument)
                // (A folder album's photos go to the Trash with it.)
                try await fixture.library.deleteAlbum(withID: id, force: true)
                #expect(
                    await Fixture.errorCode { try await fixture.library.assets(inAlbumWithID: id, at: 0, limit: 5) }
                        == .albumNotFound)
            }
        }

        /// An album's photos are found by their original names, the letters A–Z in either case and
        /// nothing else folded (composed and decomposed accents are one name): the album's other
        /// photos and another album's photo of the same name are not returned, a list longer than
        /// one query is asked in parts, and an album that is not there has none.
        public func anAlbumsPhotosAreFoundByTheirNames() async throws {
            try await kind.withLibrary { fixture in
                let trips = fixture.library.album(titled: "Trips")
                let first = try await trips.save(.file(try fixture.uniqueJPEG("IMG_0001"))).assetID
                let beach = try await trips.save(.file(try fixture.uniqueJPEG("Beach"))).assetID
                let summer = try await trips.save(.file(try fixture.uniqueJPEG("\u{C9}t\u{E9}"))).assetID
                _ = try await trips.save(.file(try fixture.uniqueJPEG("other")))
                _ = try await fixture.library.album(titled: "Elsewhere").save(
                    .file(try fixture.uniqueJPEG("IMG_0001")))
                let id = try await fixture.library.albumInfo(titled: "Trips").id
                func found(_ names: [String]) async throws -> Set<String> {
                    Set(try await fixture.library.assets(inAlbumWithID: id, originallyNamed: names).map(\.id))
                }
                #expect(try await found(["img_0001.JPG", "BEACH.JPG", "nothing.jpg"]) == [first, beach])
                #expect(try await found(["IMG_0001.jpg"]) == [first])
                #expect(try await found([]).isEmpty)
                // Only A–Z fold: `été` is another name than `Été`; the decomposed `Été` is the same.
                #expect(try await found(["\u{E9}t\u{E9}.jpg"]).isEmpty)
                #expect(try await found(["E\u{301}te\u{301}.JPG"]) == [summer])
                // More names than one query takes.
                let many = (0..<(OriginalNameKey.chunkSize * 2 + 7)).map { "missing-\($0).jpg" } + ["beach.jpg"]
                #expect(try await found(many) == [beach])
                let names = try await fixture.library.assets(inAlbumWithID: id, originallyNamed: ["beach.JPG"])
                #expect(names.map(\.originalFilename) == ["Beach.jpg"])
                try await fixture.library.deleteAlbum(withID: id, force: true)
                #expect(try await found(["Beach.jpg"]).isEmpty)
            }
        }
    }
#endif
