import Foundation
import Testing

@testable import AlbumKitCore

/// The three classes of duplicates and the rule that keeps burst frames apart, on hashes chosen by hand.
@Suite struct DuplicateFinderTests {
    static let noon = Date(timeIntervalSince1970: 1_780_000_000)
    static let scene: UInt64 = 0x9F3C_5A5A_0FF0_C3A5

    /// `hash` with the bits of `mask` flipped, in both hashes.
    static func hash(_ flips: UInt64 = 0) -> PerceptualHash {
        PerceptualHash(difference: ~scene ^ flips, perceptual: scene ^ flips)
    }

    static func photo(
        _ name: String, flips: UInt64 = 0, sha: String? = nil, size: (Int, Int) = (4000, 3000),
        at offset: Double? = 0, camera: String? = "Canon EOS R6", added: Double = 0
    ) -> DuplicateCandidate {
        DuplicateCandidate(
            id: name, name: name, sha256: sha ?? name, byteSize: Int64(size.0 * size.1 / 4), pixelWidth: size.0,
            pixelHeight: size.1, capturedAt: offset.map { noon.addingTimeInterval($0) }, camera: camera,
            format: .jpeg, addedAt: noon.addingTimeInterval(added), albums: ["Trip"], hash: hash(flips))
    }

    @Test func sameBytesAreOneFileAndCountAsOnePicture() async {
        let groups = await DuplicateFinder().groups(of: [
            Self.photo("IMG_1001.JPG", sha: "aa"), Self.photo("Copy of IMG_1001.JPG", sha: "aa", added: 10),
        ])
        #expect(groups.map(\.kind) == [.sameFile])
        #expect(groups[0].keep.name == "IMG_1001.JPG")
        #expect(groups[0].extras.map(\.name) == ["Copy of IMG_1001.JPG"])
    }

    @Test func copiesOfOneShotAreOnePictureKeepingTheLargest() async {
        // A resized copy, a recompressed one, one stripped of EXIF, one in HEIC: a few bits apart.
        let groups = await DuplicateFinder().groups(of: [
            Self.photo("IMG_1001_small.jpg", flips: 0b11, size: (2000, 1500), added: 5),
            Self.photo("IMG_1001.JPG", added: 1),
            Self.photo("IMG_1001_q70.jpg", flips: 0b1 << 40, added: 6),
            Self.photo("stripped.jpg", flips: 0b101 << 20, at: nil, camera: nil, added: 7),
            Self.photo("IMG_1001.HEIC", flips: 0b1 << 9, added: 8),
        ])
        #expect(groups.map(\.kind) == [.samePicture])
        #expect(groups[0].keep.name == "IMG_1001.JPG", "largest, with its metadata, added first")
        #expect(groups[0].members.count == 5)
    }

    @Test func burstFramesAreNeverOnePictureButAreListedAsABurst() async {
        // Five frames 0.2 s apart (one EXIF second), pixels 1 to 3 bits apart, sequential names.
        let frames = (0..<5).map { frame in
            Self.photo("IMG_\(2001 + frame).JPG", flips: UInt64(0b1) << UInt64(frame * 3), at: 0)
        }
        let groups = await DuplicateFinder().groups(of: frames)
        #expect(groups.map(\.kind) == [.similar])
        #expect(groups[0].isBurst)
        #expect(groups[0].members.map(\.name) == frames.map(\.name))
        #expect(groups[0].extras.isEmpty, "nothing of a similar group is offered for removal")
    }

    @Test func aCopyBetweenTwoBurstFramesJoinsOneOfThemNeverBoth() async {
        // The stripped copy of frame 2001 is 1 bit from it and 2 from frame 2002.
        let groups = await DuplicateFinder().groups(of: [
            Self.photo("IMG_2001.JPG"),
            Self.photo("IMG_2002.JPG", flips: 0b11100),
            Self.photo("export.jpg", flips: 0b100, at: nil, camera: nil),
        ])
        let same = groups.filter { $0.kind == .samePicture }
        #expect(same.count == 1)
        #expect(Set(same[0].members.map(\.name)) == ["IMG_2001.JPG", "export.jpg"])
        #expect(groups.contains { $0.kind == .similar && $0.members.count == 2 })
    }

    @Test func evidenceOfAnotherShotKeepsPicturesApart() {
        let a = Self.photo("IMG_1001.JPG")
        // Taken a second later, by another camera, another shot number: different shots.
        #expect(ShotEvidence.differentShots(a, Self.photo("a.jpg", at: 1)))
        #expect(ShotEvidence.differentShots(a, Self.photo("a.jpg", camera: "SONY ILCE-7M3")))
        #expect(ShotEvidence.differentShots(a, Self.photo("IMG_1002 (small).jpg")))
        // A time zone dropped by a converter, a lost camera, a renamed copy: no evidence.
        #expect(!ShotEvidence.differentShots(a, Self.photo("IMG_1001.HEIC", at: 3600)))
        #expect(!ShotEvidence.differentShots(a, Self.photo("IMG_1001.jpg", at: -5400)))
        #expect(!ShotEvidence.differentShots(a, Self.photo("holiday.jpg", at: nil, camera: nil)))
        #expect(!ShotEvidence.differentShots(a, Self.photo("DSC01001.jpg")), "another prefix is another scheme")
        #expect(ShotEvidence.shotNumber("IMG_1001 (small).jpg")! == ("img_", "1001"))
        #expect(ShotEvidence.shotNumber("holiday.jpg") == nil)
        #expect(ShotEvidence.shotNumber("P12.jpg") == nil, "two digits are not a shot number")
    }

    @Test func anotherShapeOrFartherPixelsAreNotTheSamePicture() async {
        let finder = DuplicateFinder()
        let a = Self.photo("a.jpg", camera: nil)
        #expect(!finder.isSamePicture(a, Self.photo("b.jpg", size: (4000, 2250), camera: nil)), "16:9 crop of 4:3")
        #expect(finder.isSamePicture(a, Self.photo("b.jpg", size: (3000, 4000), camera: nil)), "rotated")
        let farther = Self.photo("c.jpg", flips: 0x7F, camera: nil)  // 7 bits: similar, not the same
        #expect(!finder.isSamePicture(a, farther))
        let groups = await finder.groups(of: [a, farther])
        #expect(groups.map(\.kind) == [.similar])
        #expect(!groups[0].isBurst)
    }

    @Test func picturesWithoutHashesAreComparedByBytesAlone() async {
        var video = Self.photo("clip.mp4", sha: "v")
        video.hash = nil
        var again = Self.photo("clip copy.mp4", sha: "v", added: 3)
        again.hash = nil
        let groups = await DuplicateFinder().groups(of: [video, again, Self.photo("IMG_1.JPG")])
        #expect(groups.map(\.kind) == [.sameFile])
    }
}
