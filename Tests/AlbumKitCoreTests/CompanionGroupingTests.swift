import AlbumKitCore
import Testing

/// Which files of a folder go together as one photo (``CompanionGrouping``) and the names they
/// take beside it (``AssetCompanion/name(of:photo:as:)``).
@Suite struct CompanionGroupingTests {
    @Test func aRawJPEGPairAndItsSidecarsAreOneGroup() {
        let grouping = CompanionGrouping([
            "IMG_1.CR2", "IMG_1.JPG", "IMG_1.xmp", "IMG_1.CR2.xmp", "IMG_2.jpg", "IMG_2.jpg.XMP", "IMG_3.HEIC",
            "IMG_3.AAE", "IMG_4.NEF", "IMG_4.xmp", "notes.xmp", "readme.txt",
        ])
        #expect(grouping.groups.map(\.primary) == ["IMG_1.JPG", "IMG_2.jpg", "IMG_3.HEIC", "IMG_4.NEF"])
        #expect(grouping.groups[0].companions.map(\.name) == ["IMG_1.CR2", "IMG_1.xmp", "IMG_1.CR2.xmp"])
        #expect(grouping.groups[0].companions.map(\.role) == [.raw, .sidecar, .sidecar])
        #expect(grouping.groups[1].companions.map(\.name) == ["IMG_2.jpg.XMP"])
        #expect(grouping.groups[2].companions.map(\.name) == ["IMG_3.AAE"])
        // A raw without a JPEG is a photo of its own, with its sidecar.
        #expect(grouping.groups[3].companions.map(\.name) == ["IMG_4.xmp"])
        #expect(grouping.orphans == ["notes.xmp"])
    }

    @Test func withoutPairingTheRawIsItsOwnPhoto() {
        let grouping = CompanionGrouping(["IMG_1.CR2", "IMG_1.JPG", "IMG_1.CR2.xmp"], pairingRaws: false)
        #expect(grouping.groups.map(\.primary) == ["IMG_1.CR2", "IMG_1.JPG"])
        #expect(grouping.groups[0].companions.map(\.name) == ["IMG_1.CR2.xmp"])
        #expect(grouping.groups[1].companions.isEmpty)
    }

    @Test func companionsAreNamedAfterThePhotosName() {
        #expect(AssetCompanion.name(of: "IMG_1.JPG.xmp", photo: "IMG_1.JPG", as: "IMG_1 2.JPG") == "IMG_1 2.JPG.xmp")
        #expect(AssetCompanion.name(of: "IMG_1.xmp", photo: "IMG_1.JPG", as: "IMG_1 2.JPG") == "IMG_1 2.xmp")
        #expect(AssetCompanion.name(of: "IMG_1.CR2", photo: "IMG_1.JPG", as: "IMG_1 2.JPG") == "IMG_1 2.CR2")
        #expect(AssetCompanion.name(of: "IMG_1.AAE", photo: "IMG_1.HEIC", as: "IMG_1.HEIC") == "IMG_1.AAE")
    }
}
