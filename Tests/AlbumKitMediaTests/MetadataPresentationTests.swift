import Foundation
import Testing

@testable import AlbumKitMedia

/// How metadata reads to a person: the camera named once, coordinates without binary noise.
@Suite struct MetadataPresentationTests {
    @Test(arguments: [
        ("Canon", "Canon EOS R6", "Canon EOS R6"),
        ("NIKON CORPORATION", "NIKON D850", "NIKON D850"),
        ("SONY", "ILCE-7M3", "SONY ILCE-7M3"),
        ("Apple", "iPhone 15 Pro", "Apple iPhone 15 Pro"),
        ("  FUJIFILM ", "X-T4", "FUJIFILM X-T4"),
        ("", "GoPro HERO9", "GoPro HERO9"),
        ("Leica", "", "Leica"),
    ])
    func theCameraIsNamedOnce(_ make: String, _ model: String, _ shown: String) {
        var metadata = MediaMetadata(format: .jpeg)
        metadata.make = make
        metadata.model = model
        #expect(metadata.camera == shown)
    }

    @Test func noMakeOrModelIsNoCamera() {
        #expect(MediaMetadata(format: .jpeg).camera == nil)
    }

    @Test func coordinatesHaveSevenDecimalsWhetherParsedOrDecoded() throws {
        // Given 2° 17' 40.2" E, as EXIF's rationals give it (2 + 17/60 + 40.2/3600)
        var metadata = MediaMetadata(format: .jpeg)
        metadata.longitude = 2 + 17.0 / 60 + 40.2 / 3600
        metadata.latitude = -(48 + 51.0 / 60 + 29.64 / 3600)
        #expect("\(metadata.longitude!)" == "2.2945")
        #expect("\(metadata.latitude!)" == "-48.8582333")
        // And a value stored unrounded by the previous release reads rounded
        let stored = Data(#"{"format":"jpeg","longitude":2.2944999999999998}"#.utf8)
        #expect(try JSONDecoder().decode(MediaMetadata.self, from: stored).longitude == 2.2945)
        metadata.latitude = .nan
        #expect(metadata.latitude == nil)
    }
}
