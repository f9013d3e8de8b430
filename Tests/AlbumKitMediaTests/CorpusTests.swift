import Foundation
import Testing
@testable import AlbumKitMedia

/// Every corpus file reads exactly as exiftool read it (Fixtures/expectations.json).
@Suite struct CorpusTests {
    @Test(arguments: Corpus.valid)
    func matchesExiftool(_ name: String) throws {
        // Given a file of the corpus and exiftool's reading of it
        let expected = try #require(Corpus.expectations[name])
        // When it is inspected
        let metadata = try MediaInspector().inspect(BufferByteSource(bytes: Corpus.bytes(name)))
        // Then every key matches
        #expect(metadata.format.rawValue == expected.format)
        #expect(metadata.kind.rawValue == expected.kind)
        #expect(metadata.width == expected.width)
        #expect(metadata.height == expected.height)
        #expect(metadata.orientation == expected.orientation)
        #expect(metadata.captureDate == expected.captureDate)
        #expect(metadata.make == expected.make)
        #expect(metadata.model == expected.model)
        let tolerance = metadata.kind == .video ? 1e-4 : 1e-6
        for (actual, wanted) in [
            (metadata.latitude, expected.latitude), (metadata.longitude, expected.longitude),
            (metadata.altitude, expected.altitude), (metadata.duration, expected.duration),
        ] {
            #expect(
                (actual == nil) == (wanted == nil), "\(String(describing: actual)) vs \(String(describing: wanted))")
            if let actual, let wanted { #expect(abs(actual - wanted) <= tolerance, "\(actual) vs \(wanted)") }
        }
    }

    @Test(arguments: Corpus.broken)
    func brokenIsCorrupt(_ name: String) {
        let result = inspect(Corpus.bytes(name))
        guard case .failure(let error) = result else {
            Issue.record("\(name) was accepted: \(result)")
            return
        }
        #expect(error.kind == .corrupt, "\(name): \(error.kind) \(error.reason)")
        #expect(!error.reason.isEmpty)
        #expect(!error.reason.contains("/"), "the reason must not name a path: \(error.reason)")
    }

    @Test func corpusCoversEveryFormat() {
        let formats = Set(Corpus.valid.compactMap { Corpus.expectations[$0]?.format })
        #expect(formats == Set(MediaFormat.allCases.map(\.rawValue)))
        let orientations = Set(Corpus.valid.compactMap { Corpus.expectations[$0]?.orientation })
        #expect(orientations == Set(1...8))
    }

    @Test func wrongExtensionIsIrrelevant() throws {
        let metadata = try MediaInspector().inspect(
            BufferByteSource(bytes: Corpus.bytes("corpus/jpeg-wrong-extension.png")))
        #expect(metadata.format == .jpeg)
        #expect(metadata.format.fileExtension == "jpg")
    }

    @Test func metadataEncodesIssueKeys() throws {
        let metadata = try MediaInspector().inspect(BufferByteSource(bytes: Corpus.bytes("corpus/jpeg-gps-sw-le.jpg")))
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(metadata)) as? [String: Any]
        let keys = Set(json?.keys.map { $0 } ?? [])
        #expect(
            keys == [
                "kind", "format", "width", "height", "orientation", "captureDate", "latitude", "longitude",
                "altitude", "make", "model",
            ] as Set<String>)
        let decoded = try JSONDecoder().decode(MediaMetadata.self, from: JSONEncoder().encode(metadata))
        #expect(decoded == metadata)
    }
}
