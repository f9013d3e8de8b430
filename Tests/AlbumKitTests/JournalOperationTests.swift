import Foundation
import Testing

@testable import AlbumKitCatalog
@testable import AlbumKitCore

/// A journal record's kind is typed in code and written as the same `op` every release wrote:
/// libraries made before read the same.
@Suite struct JournalOperationTests {
    /// The names on disk, as libraries hold them: changing one would make their records unreadable.
    static let namesOnDisk = [
        "save", "createAlbum", "renameAlbum", "deleteAlbum", "rememberAlbum", "addToAlbum", "removeFromAlbum",
        "deleteAssets", "restoreAssets", "purgeAssets", "setCompanions", "acknowledgeDamage",
    ]

    @Test func everyKindIsWrittenUnderItsNameOnDisk() {
        #expect(CatalogChange.Operation.allCases.map(\.rawValue) == Self.namesOnDisk)
    }

    /// A record of each kind, written and read back, is the same change; a kind no release wrote
    /// is not a change.
    @Test func everyKindReadsBackAndAnUnknownOneDoesNot() throws {
        let changes: [CatalogChange] = [
            .createAlbum(id: "a1", title: "Trips", createdAt: 1_700_000_000),
            .renameAlbum(id: "a1", title: "Walks"),
            .rememberAlbum(id: "a1", title: "Trips"),
            .addToAlbum(album: "a1", assets: ["x", "y"], at: 1_700_000_001),
            .removeFromAlbum(album: "a1", assets: ["y"]),
            .deleteAssets(["x"], at: 1_700_000_002),
            .restoreAssets(["x"]),
            .purgeAssets(["y"]),
            .deleteAlbum(id: "a1"),
            .acknowledgeDamage(offset: 42),
        ]
        for change in changes {
            let line = change.json
            #expect(CatalogChange(json: line) == change)
            let text = String(decoding: line, as: UTF8.self)
            #expect(Self.namesOnDisk.contains { text.contains("\"op\":\"\($0)\"") })
        }
        #expect(CatalogChange(json: Array(#"{"id":"a1","op":"forgetAlbum"}"#.utf8)) == nil)
    }
}
