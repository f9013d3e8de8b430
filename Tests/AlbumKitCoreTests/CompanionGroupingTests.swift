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

    /// A Canon's `.THM` and a GoPro's `.LRV` go with the clip of their stem, as sidecars; without
    /// that clip they are no companions (a photo or video of their own, as their bytes say).
    @Test func aClipsThumbnailAndLowResolutionCopyGoWithTheClip() {
        let grouping = CompanionGrouping([
            "MVI_0001.MP4", "MVI_0001.THM", "GOPR0002.MP4", "GOPR0002.lrv", "GOPR0002.THM", "IMG_0003.JPG",
            "IMG_0003.THM", "MVI_0004.THM",
        ])
        #expect(grouping.groups.map(\.primary) == ["MVI_0001.MP4", "GOPR0002.MP4", "IMG_0003.JPG"])
        #expect(grouping.groups[0].companions.map(\.name) == ["MVI_0001.THM"])
        #expect(grouping.groups[0].companions.map(\.role) == [.sidecar])
        #expect(grouping.groups[1].companions.map(\.name) == ["GOPR0002.lrv", "GOPR0002.THM"])
        // Beside a photo, or alone, a `.THM` belongs to no one (it is not a sidecar left without its photo).
        #expect(grouping.groups[2].companions.isEmpty)
        #expect(grouping.orphans.isEmpty)
        #expect(CompanionGrouping.isClipThumbnail("MVI_0001.thm") && !CompanionGrouping.isClipThumbnail("X.LRV"))
    }

    /// A GoPro of HERO6 or later names its low-resolution copy `GL` where the clip has `GH` (H.264)
    /// or `GX` (HEVC): the copy goes with the clip of the same chapter and number, never another's,
    /// and with neither when two clips of its number could claim it.
    @Test func aGoProsLowResolutionCopyGoesWithTheOneClipOfItsChapterAndNumber() {
        let grouping = CompanionGrouping([
            "GX010001.MP4", "GL010001.LRV", "GX010001.THM", "GX020001.MP4", "GL020001.LRV", "GH010002.MP4",
            "GL020002.LRV", "GH010003.MP4", "GX010003.MP4", "GL010003.LRV", "GHAA0004.MP4", "GLAA0004.LRV",
            "GX010005.MP4", "GL010006.LRV", "GOPR0007.MP4", "GOPR0007.LRV", "GX010008 2.MP4", "GL010008 2.LRV",
            "gx010009.mp4", "gl010009.lrv", "GL010010.LRV", "GL010010.MP4",
        ])
        func companions(_ clip: String) -> [String]? {
            grouping.groups.first { $0.primary == clip }?.companions.map(\.name)
        }
        #expect(companions("GX010001.MP4") == ["GL010001.LRV", "GX010001.THM"])
        #expect(companions("GX020001.MP4") == ["GL020001.LRV"], "its own chapter's copy, not the first's")
        #expect(companions("GH010002.MP4") == [], "chapter 02's copy is not chapter 01's")
        #expect(companions("GH010003.MP4") == [] && companions("GX010003.MP4") == [])
        #expect(grouping.unclaimedCopies.map(\.copy) == ["GL010003.LRV"])
        #expect(grouping.unclaimedCopies.first?.clips == ["GH010003.MP4", "GX010003.MP4"])
        #expect(companions("GHAA0004.MP4") == ["GLAA0004.LRV"], "a looping clip's chapter is letters")
        #expect(companions("GX010005.MP4") == [], "another number's copy")
        #expect(companions("GOPR0007.MP4") == ["GOPR0007.LRV"], "an older GoPro's copy has the clip's stem")
        #expect(companions("GX010008 2.MP4") == ["GL010008 2.LRV"], "numbered beside its clip in a folder library")
        #expect(companions("gx010009.mp4") == ["gl010009.lrv"])
        #expect(companions("GL010010.MP4") == ["GL010010.LRV"], "a clip of its own stem first")
        #expect(CompanionGrouping.goProClipStems(ofLowResolutionCopy: "GL01001.LRV") == nil)
        #expect(CompanionGrouping.goProClipStems(ofLowResolutionCopy: "GL010001.MP4") == nil)
        #expect(CompanionGrouping.goProClipStems(ofLowResolutionCopy: "GOPR0001.LRV") == nil)
    }

    /// Beside a clip saved under a numbered name, a GoPro's copy keeps its `GL` and takes the number.
    @Test func aGoProsLowResolutionCopyIsNamedAfterItsClipsNumber() {
        #expect(
            AssetCompanion.names(of: ["GL010001.LRV", "GX010001.THM"], photo: "GX010001.MP4", as: "GX010001 2.MP4")
                == ["GL010001 2.LRV", "GX010001 2.THM"])
        #expect(
            AssetCompanion.names(of: ["GL010001.LRV"], photo: "GX010001.MP4", as: "GX010001.MP4") == ["GL010001.LRV"])
        // A clip named otherwise: the copy follows its stem, as any clip companion does.
        #expect(AssetCompanion.names(of: ["GL010001.LRV"], photo: "GX010001.MP4", as: "Dive.MP4") == ["Dive.LRV"])
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

    /// darktable names its sidecar after the raw (`IMG_0003.CR2.xmp`) and reads no other name: beside
    /// the raw of a pair it keeps that name, numbered with the pair when the name is taken.
    @Test func aSidecarNamedAfterTheRawOfAPairFollowsTheRaw() {
        let companions = ["IMG_0003.CR2", "IMG_0003.CR2.xmp", "IMG_0003.xmp", "IMG_0003.JPG.xmp"]
        #expect(
            AssetCompanion.names(of: companions, photo: "IMG_0003.JPG", as: "IMG_0003.JPG") == companions)
        #expect(
            AssetCompanion.names(of: companions, photo: "IMG_0003.JPG", as: "IMG_0003 2.JPG") == [
                "IMG_0003 2.CR2", "IMG_0003 2.CR2.xmp", "IMG_0003 2.xmp", "IMG_0003 2.JPG.xmp",
            ])
        // Any case, as cameras and editors write it; a sidecar of a sidecar follows it too.
        #expect(
            AssetCompanion.names(
                of: ["img_1.cr2", "IMG_1.CR2.XMP", "IMG_1.CR2.XMP.bak"], photo: "IMG_1.JPG", as: "B.JPG")
                == ["B.cr2", "B.cr2.XMP", "B.cr2.XMP.bak"])
        // Without the raw among the companions, the stem rule names it.
        #expect(AssetCompanion.names(of: ["IMG_1.CR2.xmp"], photo: "IMG_1.JPG", as: "B.JPG") == ["B.xmp"])
    }

    /// Lightroom and Bridge write `IMG_1.xmp` for a raw only (a JPEG's edits go inside it): with
    /// both files of that stem, it is the raw's, whatever the order of the names.
    @Test func aStemSidecarBelongsToTheRaw() {
        let separate = CompanionGrouping(
            ["IMG_1.JPG.xmp", "IMG_1.xmp", "IMG_1.JPG", "IMG_1.CR2"], pairingRaws: false)
        #expect(separate.groups.map(\.primary) == ["IMG_1.JPG", "IMG_1.CR2"])
        #expect(separate.groups[0].companions.map(\.name) == ["IMG_1.JPG.xmp"])
        #expect(separate.groups[1].companions.map(\.name) == ["IMG_1.xmp"])
        let paired = CompanionGrouping(["IMG_1.JPG.xmp", "IMG_1.xmp", "IMG_1.JPG", "IMG_1.CR2"])
        #expect(paired.groups.map(\.primary) == ["IMG_1.JPG"])
        #expect(paired.groups[0].companions.map(\.name) == ["IMG_1.CR2", "IMG_1.JPG.xmp", "IMG_1.xmp"])
    }
}
