import AlbumKitConformance
import AlbumKit
import Foundation
import Testing

/// `Album` as one object: it knows its identifier once saved into, describes and lists itself, and
/// reports its outcome without optionals — on the in-memory library and a catalog.
@Suite struct AlbumAsOneObjectTests {
    /// Runs `body` with an in-memory library and with a fresh catalog.
    static func onEveryKind(_ body: (PhotoLibrary) async throws -> Void) async throws {
        try await body(PhotoLibrary.inMemory())
        try await Fixture.withTemporaryDirectory { dir in
            try await body(try PhotoLibrary.catalog(at: dir.appendingPathComponent("Photos.albumlibrary")))
        }
    }

    @Test func theAlbumKnowsItsIdentifierOnceSavedInto() async throws {
        try await Self.onEveryKind { library in
            let album = library.album(titled: "Trips")
            let copy = album
            #expect(album.id == nil)
            #expect(await Self.code { try await album.info() } == .albumNotFound)

            let saved = try await album.save(.data(Fixture.uniqueJPEG("one"), filename: "one.jpg"))
            #expect(saved.albumOutcome == .created)
            #expect(album.id == saved.albumID)
            #expect(copy.id == saved.albumID, "every copy of the value learns it")

            let info = try await album.info()
            #expect(info.id == saved.albumID && info.title == "Trips" && info.count == 1)
            // Another value for the same title learns the identifier from a look-up.
            let again = library.album(titled: "Trips")
            #expect(try await again.info().id == saved.albumID)
            #expect(again.id == saved.albumID)
            // Named by identifier: known at once.
            let byID = try await library.album(withID: info.id, accessPolicy: .requireAlbum)
            #expect(byID.id == info.id)
        }
    }

    @Test func theAlbumListsItselfInPages() async throws {
        try await Self.onEveryKind { library in
            let album = library.album(titled: "Trips")
            var saved: [String] = []
            for tag in ["a", "b", "c", "d", "e"] {
                saved.append(try await album.save(.data(Fixture.uniqueJPEG(tag), filename: "\(tag).jpg")).assetID)
            }
            try await library.save(.data(Fixture.uniqueJPEG("outside"), filename: "outside.jpg"))

            let whole = try await album.assets()
            #expect(Set(whole.assets.map(\.id)) == Set(saved) && whole.nextCursor == nil)
            var paged: [String] = []
            var cursor: String?
            repeat {
                let page = try await album.assets(orderedBy: .dateAdded, after: cursor, limit: 2)
                #expect(page.assets.count <= 2)
                paged += page.assets.map(\.id)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(paged == whole.assets.map(\.id), "pages join into the whole listing, in order")
            #expect(try await album.assets(matching: .videos).assets.isEmpty)
            #expect(await Self.code { try await album.assets(limit: 0) } == .invalidArgument)
            #expect(await Self.code { try await album.assets(after: "nonsense") } == .invalidArgument)
        }
    }

    @Test func outcomesAreTypedWithoutOptionals() async throws {
        try await Self.onEveryKind { library in
            let alone = try await library.save(.data(Fixture.uniqueJPEG("alone"), filename: "alone.jpg"))
            #expect(alone.albumOutcome == .notRequested)
            #expect(!alone.albumOutcome.isInAlbum && !alone.albumOutcome.isSkipped)
            #expect(alone.albumOutcome.skipReason == nil)

            let first = try await library.save(
                .data(Fixture.uniqueJPEG("first"), filename: "first.jpg"), toAlbum: "Trips")
            #expect(first.albumOutcome == .created && first.albumOutcome.isInAlbum)
            #expect("\(first.albumOutcome)" == "created", "prints as a word, never Optional(...)")
            let second = try await library.save(
                .data(Fixture.uniqueJPEG("second"), filename: "2.jpg"), toAlbum: "Trips")
            #expect(second.albumOutcome == .found && second.albumID == first.albumID)
        }
    }

    @Test func aSkippedAlbumSaysWhyWithoutComparingText() async throws {
        let library = PhotoLibrary.inMemory(access: .denied, addOnlyAccess: .authorized)
        let album = library.album(titled: "Trips", accessPolicy: .saveToLibraryWhenAlbumUnavailable)
        let saved = try await album.save(.file(Fixture.jpeg))
        #expect(saved.albumOutcome.isSkipped)
        #expect(saved.albumOutcome.skipReason?.isEmpty == false)
        #expect(!saved.albumOutcome.isInAlbum)
        #expect(album.id == nil, "an album not used is not learnt")
    }

    @Test func aRecreatedAlbumUpdatesTheIdentifier() async throws {
        try await Self.onEveryKind { library in
            let album = library.album(titled: "Trips")
            let first = try await album.save(.data(Fixture.uniqueJPEG("one"), filename: "one.jpg"))
            try await library.deleteAlbum(withID: try #require(first.albumID), force: true)
            #expect(await Self.code { try await album.info() } == .albumNotFound)
            #expect(album.id == nil, "a look-up that finds nothing forgets the identifier")
            let second = try await album.save(.data(Fixture.uniqueJPEG("two"), filename: "two.jpg"))
            #expect(second.albumOutcome == .recreated || second.albumOutcome == .created)
            #expect(album.id == second.albumID && second.albumID != first.albumID)
        }
    }

    /// The `AlbumError` code `body` throws; `nil` when it succeeds.
    static func code<T>(_ body: () async throws -> T) async -> AlbumError.Code? {
        do {
            _ = try await body()
            return nil
        } catch {
            return (error as? AlbumError)?.code
        }
    }
}
