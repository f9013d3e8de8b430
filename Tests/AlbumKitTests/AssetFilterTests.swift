import AlbumKitConformance
import Foundation
import Testing

@testable import AlbumKitCore
@testable import AlbumKitFolders

/// ``AssetFilter``'s conditions the catalog's tests do not reach: the album, in libraries that list
/// by scanning (folders, the in-memory library); the name's pattern; places; dates as written.
@Suite struct AssetFilterTests {
    /// Two photos in "Trips", one in "Home", in `library`; returns their ids by name.
    static func fill(_ library: PhotoLibrary, in dir: URL) async throws -> [String: String] {
        var ids: [String: String] = [:]
        for (name, album) in [("IMG_0001.JPG", "Trips"), ("IMG_0002.JPG", "Trips"), ("DSC_0003.JPG", "Home")] {
            let file = Fixture.write(Fixture.uniqueJPEG(name), named: name, in: dir)
            ids[name] = try await library.album(titled: album).save(.file(file)).assetID
        }
        return ids
    }

    @Test(arguments: ["folders", "memory"])
    func theAlbumAndTheNameFilterEveryLibraryKind(kind: String) async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let pictures = dir.appendingPathComponent("Pictures")
            try FileManager.default.createDirectory(at: pictures, withIntermediateDirectories: true)
            let library = kind == "folders" ? try PhotoLibrary.folders(at: pictures) : PhotoLibrary.inMemory()
            let sources = dir.appendingPathComponent("card")
            try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
            let ids = try await Self.fill(library, in: sources)
            let trips = try await library.albumInfo(titled: "Trips").id
            func listed(_ filter: AssetFilter) async throws -> Set<String> {
                var found: Set<String> = []
                var cursor: String?
                repeat {
                    let page = try await library.assets(
                        orderedBy: .captureDate, matching: filter, after: cursor, limit: 1)
                    found.formUnion(page.assets.map(\.id))
                    cursor = page.nextCursor
                } while cursor != nil
                return found
            }
            #expect(try await listed(AssetFilter(albumID: trips)) == [ids["IMG_0001.JPG"]!, ids["IMG_0002.JPG"]!])
            #expect(try await listed(AssetFilter(name: "img_*")) == [ids["IMG_0001.JPG"]!, ids["IMG_0002.JPG"]!])
            #expect(try await listed(AssetFilter(name: "*3.jpg", albumID: trips)).isEmpty)
            #expect(try await listed(AssetFilter(name: "dsc_000[1-3].JPG")) == [ids["DSC_0003.JPG"]!])
            #expect(try await listed(AssetFilter(camera: "Canon")).isEmpty)
        }
    }

    @Test func namePatternsMatchAsAShellDoesCaseAside() {
        let cases: [(String, String, Bool)] = [
            ("IMG_*", "img_0001.jpg", true), ("*.CR2", "IMG_1.cr2", true), ("*.CR2", "IMG_1.CR2.xmp", false),
            ("IMG_000?.JPG", "IMG_0001.JPG", true), ("IMG_000?.JPG", "IMG_00012.JPG", false),
            ("[!I]*", "IMG_1.JPG", false), ("[!I]*", "DSC_1.JPG", true), ("*a*b*c", "xaybzc", true),
            ("*a*b*c", "xaybz", false), ("[", "[", true), ("", "", true), ("*", "", true),
        ]
        for (pattern, name, expected) in cases {
            #expect(AssetFilter.glob(pattern, matches: name) == expected, "\(pattern) \(name)")
        }
    }

    @Test func placesAreBoxesAndDistancesAlongTheGround() {
        let paris = GeoLocation(latitude: 48.8566, longitude: 2.3522)
        let london = GeoLocation(latitude: 51.5074, longitude: -0.1278)
        let distance = GeoArea.kilometres(from: paris, to: london)
        #expect(distance > 340 && distance < 348)
        #expect(GeoArea.near(paris, kilometres: 350).contains(london))
        #expect(!GeoArea.near(paris, kilometres: 300).contains(london))
        #expect(GeoArea.box(south: 51, west: -1, north: 52, east: 1).contains(london))
        // Across the 180th meridian: Fiji's 179° E and 179° W are both in.
        let pacific = GeoArea.box(south: -20, west: 170, north: -10, east: -170)
        #expect(pacific.contains(GeoLocation(latitude: -17, longitude: 179)))
        #expect(pacific.contains(GeoLocation(latitude: -17, longitude: -179)))
        #expect(!pacific.contains(GeoLocation(latitude: -17, longitude: 0)))
    }

    @Test func datesAsWrittenCoverTheirWholeYearMonthOrDay() throws {
        let may = try AssetFilter.takenRange(from: "2024-05", to: "2024-05")
        #expect(AssetOrder.captureDate.sortKey(of: may.lowerBound) == "2024-05-01T00:00:00")
        #expect(AssetOrder.captureDate.sortKey(of: may.upperBound) == "2024-06-01T00:00:00")
        let leap = try AssetFilter.takenRange(from: "2024-02-29", to: "2024-02-29")
        #expect(leap.upperBound.timeIntervalSince(leap.lowerBound) == 86_400)
        let open = try AssetFilter.takenRange(from: "1999", to: nil)
        #expect(AssetOrder.captureDate.sortKey(of: open.upperBound) == "9999-12-31T23:59:59")
        for bad in ["2023-02-29", "2024-13", "24", "2024-5", "2024-05-01T10", "２０２４"] {
            #expect(throws: AlbumError.self, "\(bad)") { _ = try AssetFilter.takenRange(from: bad, to: nil) }
        }
        #expect(throws: AlbumError.self) { _ = try AssetFilter.takenRange(from: "2024", to: "2023") }
    }
}
