#if os(Linux)
    import Foundation
    import Testing

    @testable import AlbumKitCatalog
    @testable import AlbumKitCore
    @testable import AlbumKitShared

    /// The behaviour every library promises, checked through the public API against every kind
    /// (``LibraryKind``). Where a kind differs by design, the test says what it does instead.
    ///
    /// Nested in ``SharedServerTests``: one at a time with the other server tests (one of them stops
    /// the object store), and failing in CI when the servers cannot start.
    extension SharedServerTests {
        @Suite struct LibraryConformanceTests {
            @Test(arguments: LibraryKind.allCases)
            func firstSaveCreatesTheAlbumAndTheNextFindsIt(kind: LibraryKind) async throws {
                try await withLibrary(kind) { fixture in
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

            @Test(arguments: LibraryKind.allCases)
            func albumTitlesAreTheAlbumsTitlesInTheirOrder(kind: LibraryKind) async throws {
                try await withLibrary(kind) { fixture in
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

            @Test(arguments: LibraryKind.allCases)
            func fiftyConcurrentSavesIntoAMissingAlbumMakeExactlyOne(kind: LibraryKind) async throws {
                try await withLibrary(kind) { fixture in
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

            @Test(arguments: LibraryKind.allCases)
            func anAlbumDeletedBehindItsBackIsRecreated(kind: LibraryKind) async throws {
                try await withLibrary(kind) { fixture in
                    let album = fixture.library.album(titled: "Gone")
                    let first = try await album.save(.file(try fixture.uniqueJPEG("one")))
                    switch fixture.kind {
                    case .catalog, .shared, .inMemory, .photoKit:
                        // Another handle (another process, app, or part of the app) deletes the
                        // album; the photos stay in the library.
                        try await fixture.reopen().deleteAlbum(titled: "Gone", force: true)
                    case .folders:
                        // Deleting through the folder library is the user's own act and forgets the
                        // title (see the next test). "Behind its back" for folders is the user
                        // removing the album folder in a file manager.
                        try FileManager.default.removeItem(
                            at: fixture.directory.appendingPathComponent("Pictures/Gone"))
                    }
                    let again = try await album.save(.file(try fixture.uniqueJPEG("two")))
                    #expect(again.albumOutcome == .recreated)
                    #expect(again.albumID != nil && again.albumID != first.albumID)
                    #expect(try await fixture.library.albums().map(\.title) == ["Gone"])
                    #expect(try await fixture.library.assets(inAlbumTitled: "Gone").count == 1)
                    // The library still holds the first photo, except the folder library, where the
                    // removed folder took it away.
                    #expect(try await fixture.library.verify().checkedAssets == (kind == .folders ? 1 : 2))
                }
            }

            @Test(arguments: LibraryKind.allCases)
            func aRenamedAlbumKeepsItsIDAndADeletedOneIsMadeAgain(kind: LibraryKind) async throws {
                try await withLibrary(kind) { fixture in
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
                    // A folder library forgets a title whose album the user deleted through it (its
                    // folder went to the Trash on purpose); the others remember the album was lost.
                    #expect(again.albumOutcome == (kind == .folders ? .created : .recreated))
                }
            }

            @Test(arguments: LibraryKind.allCases)
            func duplicateTitlesResolveToTheOldest(kind: LibraryKind) async throws {
                try await withLibrary(kind) { fixture in
                    // Through the API `createAlbum` finds the existing album (every kind), so the
                    // duplicates are written straight into the store, as another app would.
                    let key = try AlbumTitle("Twins").key
                    _ = try await fixture.library.createAlbum(titled: "Other")  // the catalog is made lazily
                    var older = "older"
                    var newer = "newer"
                    switch fixture.kind {
                    case .shared:
                        try fixture.shared!.sql(
                            "INSERT INTO album (id, title, title_key, created_at) VALUES "
                                + "('newer', 'Twins', $1, 200), ('older', 'twins', $1, 100)", [key])
                    case .catalog:
                        // Another process's records (the journal is the catalog library).
                        let root = fixture.directory.appendingPathComponent("Library.albumkit").path
                        try LibraryJournal(libraryRoot: root).append([
                            .createAlbum(id: "newer", title: "Twins", createdAt: 200),
                            .createAlbum(id: "older", title: "Twins", createdAt: 100),
                        ])
                    case .photoKit:
                        // Photos documents no creation order; the rule takes the album whose photos go
                        // back furthest (then the fuller one, then the smaller identifier).
                        let simulation = try #require(fixture.simulation)
                        let photo = simulation.userAddsAsset(creationDate: Date(timeIntervalSince1970: 1_000_000))
                        newer = simulation.userCreatesAlbum(titled: "Twins")
                        older = simulation.userCreatesAlbum(titled: "Twins", assetLocalIdentifiers: [photo])
                    case .inMemory:
                        // No API makes a second album with a title: written into the test double, the
                        // later one first in its list.
                        let when = Date(timeIntervalSince1970: 100)
                        try #require(fixture.memory).state.withLock {
                            $0.albums.insert(
                                .init(id: "older", title: try AlbumTitle("Twins"), members: [], createdAt: when), at: 0)
                        }
                        older = "older"
                        newer = try await fixture.library.createAlbum(titled: "Twins").id
                        #expect(newer == "older", "the in-memory library finds the album it holds")
                        newer = "newer"
                        try #require(fixture.memory).state.withLock {
                            $0.albums.append(
                                .init(
                                    id: "newer", title: try AlbumTitle("Twins"), members: [],
                                    createdAt: when.addingTimeInterval(100)))
                        }
                    case .folders:
                        // A folder library's album is a folder, and one folder name cannot exist
                        // twice: there is no second album to resolve between. The one album is
                        // found every time (case variants follow FolderTitleLookupTests).
                        let oldest = try await fixture.library.createAlbum(titled: "Twins")
                        (older, newer) = (oldest.id, oldest.id)
                    }
                    for label in ["x", "y", "z"] {
                        let saved = try await fixture.reopen().album(titled: "Twins").save(
                            .file(try fixture.uniqueJPEG(label)))
                        #expect(saved.albumID == older && saved.albumOutcome == .found)
                    }
                    let twins = try await fixture.library.albums().filter { $0.title.lowercased() == "twins" }
                    #expect(twins.map(\.id) == (kind == .folders ? [older] : [older, newer]))
                    // (In Photos, with the user's photo that dates the older album.)
                    #expect(twins.first?.count == (kind == .photoKit ? 4 : 3))
                }
            }

            @Test(arguments: LibraryKind.allCases)
            func aBadFileFailsAloneAndTheRestOfTheBatchSaves(kind: LibraryKind) async throws {
                try await withLibrary(kind) { fixture in
                    let text = fixture.directory.appendingPathComponent("notes.jpg")
                    try Data("just some words, not a photo".utf8).write(to: text)
                    let truncated = fixture.directory.appendingPathComponent("cut.jpg")
                    let whole = try Data(contentsOf: SharedServers.examples.appendingPathComponent("harbour.jpg"))
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
            @Test(arguments: LibraryKind.allCases)
            func anEmptyPhotoIsDamagedNamingItsCause(kind: LibraryKind) async throws {
                try await withLibrary(kind) { fixture in
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

            @Test(arguments: LibraryKind.allCases)
            func identicalBytesAreStoredAsTheyCame(kind: LibraryKind) async throws {
                try await withLibrary(kind) { fixture in
                    let file = try fixture.uniqueJPEG("same")
                    let first = try await fixture.library.album(titled: "A").save(.file(file))
                    let second = try await fixture.library.album(titled: "A").save(.file(file))
                    #expect(!first.isExisting)
                    let assets = try await fixture.library.assets(inAlbumTitled: "A")
                    let expected = try sha256(ofFileAt: file)
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

            @Test(arguments: LibraryKind.allCases)
            func renameKeepsTheID(kind: LibraryKind) async throws {
                try await withLibrary(kind) { fixture in
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
                            await errorCode { try await fixture.library.albumInfo(titled: "Old") } == .albumNotFound)
                    }
                }
            }

            @Test(arguments: LibraryKind.allCases)
            func invalidTitlesAreRefused(kind: LibraryKind) async throws {
                try await withLibrary(kind) { fixture in
                    let file = try fixture.uniqueJPEG("t")
                    for title in ["", "   ", "a\u{0}b"] {
                        #expect(
                            await errorCode { try await fixture.library.album(titled: title).save(.file(file)) }
                                == .invalidAlbumTitle, "\(title.debugDescription)")
                        #expect(
                            await errorCode { try await fixture.library.createAlbum(titled: title) }
                                == .invalidAlbumTitle, "\(title.debugDescription)")
                    }
                    #expect(try await fixture.library.albums().isEmpty)
                }
            }

            @Test(arguments: LibraryKind.allCases)
            func assetsAreAddedAndRemovedAndEmptyAlbumsDeleted(kind: LibraryKind) async throws {
                try await withLibrary(kind) { fixture in
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
                        await errorCode { try await fixture.library.albumInfo(withID: saved.albumID!) }
                            == .albumNotFound)
                    #expect(try await fixture.library.verify().isHealthy)
                }
            }

            @Test(arguments: LibraryKind.allCases)
            func everyLibraryAnswersAccessAndPagesWithFilters(kind: LibraryKind) async throws {
                try await withLibrary(kind) { fixture in
                    #expect(try await fixture.library.requestAccess(for: .readWrite).isGranted)
                    #expect(try await fixture.library.access(for: .addOnly) == .authorized)
                    let examples = SharedServers.examples
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

            @Test(arguments: LibraryKind.allCases)
            func changesReportWhatTheAppAndOthersDo(kind: LibraryKind) async throws {
                try await withLibrary(kind) { fixture in
                    // The catalog exists before the other handle opens it.
                    _ = try await fixture.library.createAlbum(titled: "First")
                    var changes = fixture.library.changes(interval: .milliseconds(50)).makeAsyncIterator()
                    // The first reading (or the observer's registration) happens in the background.
                    try await Task.sleep(for: .milliseconds(300))
                    let saved = try await fixture.library.album(titled: "Trips").save(
                        .file(try fixture.uniqueJPEG("mine")))
                    var seen = LibraryChange()
                    while seen.insertedAssetIDs.isEmpty || seen.insertedAlbumIDs.isEmpty {
                        let change = try #require(try await changes.next())
                        seen.insertedAssetIDs += change.insertedAssetIDs
                        seen.insertedAlbumIDs += change.insertedAlbumIDs
                    }
                    #expect(seen.insertedAlbumIDs == [saved.albumID!])
                    #expect(seen.insertedAssetIDs == [saved.assetID])
                    try await fixture.library.renameAlbum(withID: saved.albumID!, to: "Holidays")
                    var renamed = try #require(try await changes.next())
                    while renamed.changedAlbumIDs.isEmpty { renamed = try #require(try await changes.next()) }
                    #expect(renamed.changedAlbumIDs == [saved.albumID!])
                    // Another handle (another process, app or part of the app) saves: reported too.
                    let theirs = try await fixture.reopen().album(titled: "Elsewhere").save(
                        .file(try fixture.uniqueJPEG("theirs")))
                    var other = LibraryChange()
                    while other.insertedAlbumIDs.isEmpty {
                        let change = try #require(try await changes.next())
                        other.insertedAssetIDs += change.insertedAssetIDs
                        other.insertedAlbumIDs += change.insertedAlbumIDs
                    }
                    #expect(other.insertedAlbumIDs == [theirs.albumID!])
                    #expect(other.insertedAssetIDs.count == 1)
                }
            }

            @Test(arguments: LibraryKind.allCases)
            func descriptionsGivenWhenSavingAreKept(kind: LibraryKind) async throws {
                try await withLibrary(kind) { fixture in
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
        }
    }
#endif
