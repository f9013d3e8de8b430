import AlbumKitConformance
import Foundation
import Testing

@testable import AlbumKitCatalog
@testable import AlbumKitCore

/// What `album add`, `remove`, `delete-asset` and `thumbnail` accept for an asset — an id, the
/// start of one, an original or stored file name — found in a catalog by seeks: the candidates
/// are the ones a reading of every asset would keep, and each query's plan is a search.
@Suite struct CatalogAssetNamingTests {
    /// A saved asset's record, its file in folder `folder` of `originals/`.
    static func save(_ id: String, named name: String?, file: String) -> CatalogChange {
        .save(
            .init(
                id: id, path: "originals/\(file)", originalName: name, byteSize: 100,
                sha256: String(repeating: "0", count: 63) + "\(id.count % 10)", kind: "photo", format: "jpeg",
                addedAt: 1_700_000_000, metadata: #"{"format":"jpeg","kind":"photo"}"#))
    }

    static let records: [CatalogChange] = [
        save("9bca90d2-0001", named: "IMG_0001.JPG", file: "00/9bca90d2-0001.jpg"),
        save("9bca90d2-0002", named: "img_0001.jpg", file: "3f/9bca90d2-0002.jpg"),
        save("9bcb0000-0003", named: "harbour.jpg", file: "3f/kept-by-repair.jpg"),
        save("a0000000-0004", named: nil, file: "ff/IMG_0001.JPG"),
        save("a0000000-0005", named: "deleted.jpg", file: "ff/a0000000-0005.jpg"),
        // A folder whose name sorts inside another's range ("3f" < "3f0" < "3f/…" is false: "/" < "0").
        save("b0000000-0006", named: "deep.jpg", file: "3f0/kept-by-repair.jpg"),
        // Named as the start of other assets' ids: those ids come first.
        save("c0000000-0007", named: "9bca90d2", file: "00/c0000000-0007.jpg"),
        .deleteAssets(["a0000000-0005"], at: 1_700_000_100),
        .createAlbum(id: "album-1", title: "Best", createdAt: 1_700_000_000),
        .addToAlbum(album: "album-1", assets: ["9bca90d2-0002", "a0000000-0004"], at: 1_700_000_000),
    ]

    @Test func referencesFindWhatAReadingOfEveryAssetWould() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Naming.albumlibrary")
            _ = try CatalogBackend.open(at: url)
            try LibraryJournal(libraryRoot: url.path).append(Self.records)
            let library = PhotoLibrary(backend: try CatalogBackend.open(at: url))
            let every = try await library.assets(orderedBy: .dateAdded, limit: 100).assets
            #expect(every.count == 6)
            let members = try await library.assets(inAlbumWithID: "album-1")
            let references = [
                "9bca90d2-0001", "9bca", "9bc", "9bca90d2-0002", "IMG_0001.JPG", "img_0001.jpg", "IMG_0001.jpg",
                "kept-by-repair.jpg", "9bca90d2-0001.jpg", "harbour.jpg", "deleted.jpg", "a0000000-0005", "3f",
                "", "originals/3f/kept-by-repair.jpg", "nothing", "9bca90d2",
            ]
            let found = try await library.assets(possiblyNamedBy: references)
            let inAlbum = try await library.assets(possiblyNamedBy: references, inAlbumWithID: "album-1")
            for (index, reference) in references.enumerated() {
                #expect(Set(found[index].map(\.id)) == Self.named(by: reference, among: every), "\(reference)")
                let inTheAlbum = Self.named(by: reference, among: members)
                #expect(Set(inAlbum[index].map(\.id)) == inTheAlbum, "\(reference) in the album")
            }
            // Spot checks of what the rule means.
            #expect(Set(found[1].map(\.id)) == ["9bca90d2-0001", "9bca90d2-0002"])
            #expect(found[2].isEmpty)
            #expect(found[4].map(\.id) == ["9bca90d2-0001"], "the original name before the stored one")
            #expect(Set(found[7].map(\.id)) == ["9bcb0000-0003", "b0000000-0006"])
            #expect(found[10].isEmpty && found[11].isEmpty)
            #expect(inAlbum[4].map(\.id) == ["a0000000-0004"])
            #expect(Set(found[16].map(\.id)) == ["9bca90d2-0001", "9bca90d2-0002"], "ids before names")
        }
    }

    /// The assets of `assets` that `reference` names by the first rule that names any: its whole
    /// id, the start of ids, the original file name, the stored one (what a reading of every asset
    /// finds, as resolution reads it).
    static func named(by reference: String, among assets: [AssetInfo]) -> Set<String> {
        let named = assets.filter { $0.mayBeNamed(by: reference) }
        let byID = named.filter { $0.id == reference || (reference.count >= 4 && $0.id.hasPrefix(reference)) }
        let original = named.filter { $0.originalFilename == reference }
        return Set((!byID.isEmpty ? byID : !original.isEmpty ? original : named).map(\.id))
    }

    /// Each query of the look-up searches an index; none scans the assets, whatever their number.
    @Test func eachQuerySeeks() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Naming.albumlibrary")
            let backend = try CatalogBackend.open(at: url)
            try LibraryJournal(libraryRoot: url.path).append(Self.records)
            _ = try await PhotoLibrary(backend: backend).albums()
            try backend.withIndex("test") { connection in
                let db = connection.index!.db
                for sql in [
                    CatalogBackend.idRangeSQL, CatalogBackend.originalNameSQL, CatalogBackend.storedPathSQL,
                    CatalogBackend.nextPathSQL,
                ] {
                    let steps = try db.rows("EXPLAIN QUERY PLAN " + sql).compactMap { $0.text(3) }
                    #expect(steps.allSatisfy { !$0.hasPrefix("SCAN") && !$0.contains("TEMP B-TREE") }, "\(steps)")
                    #expect(steps.first?.hasPrefix("SEARCH") == true, "\(sql): \(steps)")
                }
            }
        }
    }
}
