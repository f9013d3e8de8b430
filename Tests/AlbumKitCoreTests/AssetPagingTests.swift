import Foundation
import Testing

@testable import AlbumKitCore

/// The paging every in-memory listing shares (folders, Photos): sort keys, ties, cursors.
@Suite struct AssetPagingTests {
    static func asset(_ id: String, added: TimeInterval, taken: String? = nil) -> AssetInfo {
        var metadata = MediaMetadata(format: .jpeg)
        metadata.captureDate = taken
        return AssetInfo(
            id: id, originalFilename: nil, kind: .photo, byteSize: nil, addedAt: Date(timeIntervalSince1970: added),
            metadata: metadata)
    }

    @Test func tiesBreakByIdAndPagesNeitherRepeatNorSkip() throws {
        let all = (0..<10).map { Self.asset(String(format: "id%02d", 9 - $0), added: $0 < 5 ? 100 : 50) }.shuffled()
        var seen: [String] = []
        var cursor: AssetCursor?
        repeat {
            let page = AssetCursor.page(of: all, in: .dateAdded, after: cursor, limit: 3)
            seen += page.assets.map(\.id)
            cursor = try page.nextCursor.map { try AssetCursor(token: $0, order: .dateAdded) }
        } while cursor != nil
        #expect(seen == ["id00", "id01", "id02", "id03", "id04", "id05", "id06", "id07", "id08", "id09"])
    }

    @Test func captureDateOrderFallsBackToTheDateAdded() {
        let all = [
            Self.asset("a", added: 1_700_000_000, taken: "2024-05-01T10:20:30+02:00"),
            Self.asset("b", added: 1_600_000_000),  // 2020-09-13T12:26:40Z
            Self.asset("c", added: 1_500_000_000, taken: "2021-01-01T00:00:00"),
        ]
        let page = AssetCursor.page(of: all, in: .captureDate, after: nil, limit: 10)
        #expect(page.assets.map(\.id) == ["b", "c", "a"])
        #expect(AssetOrder.captureDate.sortKey(of: all[1]) == "2020-09-13T12:26:40")
        #expect(page.nextCursor == nil)
    }

    @Test func malformedCursorsAreRefused() {
        for token in ["", "nokey", "|id", "key|"] {
            #expect(throws: AlbumError.self) { try AssetCursor(token: token, order: .dateAdded) }
        }
        #expect((try? AssetCursor(token: "k|i|d", order: .dateAdded))?.id == "i|d")
    }

    /// A cursor of the other order compared its key against the wrong column: an empty page, or
    /// one that repeats assets, without an error.
    @Test func aCursorOfTheOtherOrderIsRefused() throws {
        let added = AssetOrder.dateAddedKey(1_700_000_000.25) + "|id1"
        let taken = "2024-05-01T10:20:30|id1"
        #expect(throws: AlbumError.self) { try AssetCursor(token: added, order: .captureDate) }
        #expect(throws: AlbumError.self) { try AssetCursor(token: taken, order: .dateAdded) }
        #expect(try AssetCursor(token: added, order: .dateAdded).key == AssetOrder.dateAddedKey(1_700_000_000.25))
        #expect(try AssetCursor(token: taken, order: .captureDate).id == "id1")
    }
}
