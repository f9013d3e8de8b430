import AlbumKitConformance
import Foundation
import Testing

@testable import AlbumKitCatalog
@testable import AlbumKitCore

/// Saving a photo the catalog holds with companions that differ updates the asset's companions in
/// one journal record; a record that cannot be written leaves the earlier companions and no new
/// file behind.
@Suite struct CatalogCompanionUpdateTests {
    /// The files below `originals/` (shard/name).
    static func originals(_ url: URL) throws -> Set<String> {
        let root = url.appendingPathComponent("originals")
        var found = Set<String>()
        for shard in try FileManager.default.contentsOfDirectory(atPath: root.path) where !shard.hasPrefix(".") {
            for name in try FileManager.default.contentsOfDirectory(atPath: root.path + "/" + shard)
            where !name.hasPrefix(".") {
                found.insert(shard + "/" + name)
            }
        }
        return found
    }

    @Test func aFailedRecordKeepsTheEarlierCompanionsAndLeavesNoFile() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let url = dir.appendingPathComponent("Test.albumlibrary")
            let photo = dir.appendingPathComponent("IMG_1.jpg")
            let sidecar = dir.appendingPathComponent("IMG_1.xmp")
            try Fixture.tinyJPEG("photo").write(to: photo)
            try Data("<x:xmpmeta>first</x:xmpmeta>".utf8).write(to: sidecar)
            let media = Media.file(photo).with(companions: [.sidecar(sidecar)])
            let library = try PhotoLibrary.catalog(at: url)
            let first = try await library.save(media)
            #expect(first.companionsUpdated.isEmpty)
            let before = try Self.originals(url)
            #expect(before.count == 2)

            // Edited; the journal refuses the record.
            try Data("<x:xmpmeta>second, longer</x:xmpmeta>".utf8).write(to: sidecar)
            let journal = url.appendingPathComponent("journal").path
            FaultInjector.inject(.write, under: journal, errno: ENOSPC)
            await #expect(throws: AlbumError.self) { try await library.save(media) }
            FaultInjector.removeAll(under: journal)
            #expect(try Self.originals(url) == before, "no new file left behind")
            var asset = try #require(try await library.assets().assets.first)
            #expect(
                asset.companions.map(\.sha256) == [
                    Data("<x:xmpmeta>first</x:xmpmeta>".utf8).withUnsafeBytes { SHA256Hasher.hash($0) }
                ])

            // Written: the new version replaces the earlier one, whose file goes.
            let second = try await library.save(media)
            #expect(second.isExisting && second.assetID == first.assetID)
            #expect(second.companionsUpdated == ["IMG_1.xmp"])
            asset = try #require(try await library.assets().assets.first)
            let kept = try #require(asset.companions.first)
            #expect(asset.companions.count == 1)
            #expect(try Data(contentsOf: #require(kept.fileURL)) == Data(contentsOf: sidecar))
            #expect(try Self.originals(url).count == 2, "the earlier file is removed")
            #expect(try await library.verify().problems.isEmpty)

            // The same again: nothing to update.
            let third = try await library.save(media)
            #expect(third.isExisting && third.companionsUpdated.isEmpty)
            #expect(try Self.originals(url).count == 2)
        }
    }
}
