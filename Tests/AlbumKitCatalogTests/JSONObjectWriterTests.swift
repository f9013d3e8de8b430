import AlbumKitMedia
import Foundation
import Testing

@testable import AlbumKitCatalog
@testable import AlbumKitCore

/// The hand-written JSON of the journal's records and the catalog's metadata reads back, through
/// `JSONDecoder`, as exactly what was written, for every string and number a save can carry.
@Suite struct JSONObjectWriterTests {
    static let oddStrings: [String] = [
        "", "plain", "quote \" and backslash \\ and slash /", "tab\tnew\nline\rreturn",
        String((0..<32).map { Character(Unicode.Scalar(UInt8($0))) }), "\u{7F}\u{80}\u{FF}",
        "line\u{2028}separator\u{2029}", "é (NFC) e\u{301} (NFD)", "📷 family 👨‍👩‍👧", "\u{FEFF}bom", "\\u0041",
    ]

    static let doubles: [Double] = [
        0, -0.0, 0.1, 1e-5, 1e20, 1e300, -1e-300, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
        1_796_121_340.519_156_5,
        2500, -12.5, 47.366_667,
    ]

    @Test func journalRecordsReadBackExactly() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<500 {
            func maybe<T>(_ value: T) -> T? { Bool.random(using: &generator) ? value : nil }
            let record = FlatRecord(
                op: [.save, .createAlbum, .renameAlbum, .deleteAlbum, .removeFromAlbum, .deleteAsset][round % 6],
                asset: maybe(Self.oddStrings.randomElement()!), path: maybe(Self.randomString()),
                name: maybe(Self.randomString()), size: maybe([0, 1, .max, .min, 143_590].randomElement()!),
                sha256: maybe(String(repeating: "ab", count: 32)), added: maybe(Self.doubles.randomElement()!),
                album: maybe(UUID().uuidString.lowercased()), title: maybe(Self.oddStrings.randomElement()!),
                at: maybe(Double.random(in: -1e12...1e12)), pending: maybe(Self.randomString()),
                batch: maybe(Self.randomString()), of: maybe(Int.random(in: 0...1000)))
            let line = record.json
            #expect(!line.contains(0x0A), "a record must stay on one line")
            let decoded = try JSONDecoder().decode(FlatRecord.self, from: Data(line))
            #expect(decoded == record, "\(String(decoding: line, as: UTF8.self))")
        }
    }

    @Test func recordKeysAreSortedAsJSONEncoderSortsThem() throws {
        let record = FlatRecord(
            op: .save, asset: "a", path: "p", name: "n", size: 1, sha256: "s", added: 1, album: "al", title: "t",
            at: 2, pending: "pe", batch: "b", of: 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(record.json)) as? [String: Any])
        let text = String(decoding: record.json, as: UTF8.self)
        let positions = object.keys.sorted().map { text.range(of: "\"\($0)\":")!.lowerBound }
        #expect(positions == positions.sorted())
        #expect(object.count == 13)
    }

    /// The catalog keeps a tolerated file's warnings and the animation flag with its asset.
    @Test func warningsAndAnimationReadBack() throws {
        var metadata = MediaMetadata(format: .gif)
        metadata.isAnimated = true
        metadata.warnings = ["an unknown block was skipped", "no trailer"]
        let decoded = try JSONDecoder().decode(MediaMetadata.self, from: Data(metadata.jsonText.utf8))
        #expect(decoded.isAnimated && decoded.warnings == metadata.warnings)
    }

    @Test func metadataReadsBackExactly() throws {
        for _ in 0..<500 {
            var metadata = MediaMetadata(format: MediaFormat.allCases.randomElement()!)
            if Bool.random() { metadata.width = Int.random(in: 0...100_000) }
            if Bool.random() { metadata.height = Int.random(in: 0...100_000) }
            if Bool.random() { metadata.orientation = Int.random(in: 1...8) }
            if Bool.random() { metadata.captureDate = Self.oddStrings.randomElement()! }
            if Bool.random() { metadata.latitude = Self.doubles.randomElement()! }
            if Bool.random() { metadata.longitude = Double.random(in: -180...180) }
            if Bool.random() { metadata.altitude = Self.doubles.randomElement()! }
            if Bool.random() { metadata.make = Self.randomString() }
            if Bool.random() { metadata.model = Self.oddStrings.randomElement()! }
            if Bool.random() { metadata.duration = Double.random(in: 0...1e7) }
            let decoded = try JSONDecoder().decode(MediaMetadata.self, from: Data(metadata.jsonText.utf8))
            #expect(decoded == metadata, "\(metadata.jsonText)")
            // The listing's reading (without JSONDecoder) reads the same.
            #expect(MediaMetadata(catalogJSON: metadata.jsonText) == metadata, "\(metadata.jsonText)")
        }
    }

    /// `MediaMetadata(catalogJSON:)` reads every text as `JSONDecoder` does, those a catalog never
    /// writes (a forged or damaged index) among them: `nil` where it fails, the same values where
    /// it decodes.
    @Test func metadataTextsOfEveryKindReadAsJSONDecoderReadsThem() {
        let values = [
            "12", "-0", "0", "012", "1.0", "1e2", "1E+2", "-1.5e-3", "9223372036854775807", "9223372036854775808",
            "-9223372036854775809", "1e400", "-", "1.", ".5", "+1", "0x10", "NaN", "true", "false", "null", "\"12\"",
            "[]", "[1]", "{}", "{\"a\":1}", "[\"a\",]", "\"\\u00e9\"", "\"\\ud83d\\ude00\"", "\"\\ud800\"",
            "\"\\x\"", "\"tab\\there\"", "\"raw\ttab\"", "\"\\/\"", "\"\\u0000\"",
        ]
        let keys = [
            "width", "height", "orientation", "rating", "captureDate", "make", "model", "lens", "latitude",
            "longitude", "altitude", "duration", "animated", "warnings", "kind", "format", "other",
        ]
        var texts = [
            "", "{}", "[]", "null", #"{"format":"jpeg"}"#, #"{"format":"JPEG"}"#, #"{"format":"tiff-x"}"#,
            #"{"format":null}"#, #"{"format":"jpeg",}"#, #"{"format":"jpeg"} x"#, #" {"format":"jpeg"} "#,
            #"{"format":"jpeg","width":1,"width":2}"#, #"{"format":"png","format":"jpeg"}"#,
            #"{"format":"jpeg","warnings":["a"],"animated":true}"#, #"{"format":"gif","animated":false}"#,
            #"{"format":"jpeg","latitude":47.36666666666,"longitude":-1e-9}"#, #"{"format":"jpeg","kind":"video"}"#,
            #"{"format":"jpeg","other":{"deep":[1,2,{"x":null}]}}"#, #"{"format":"jpeg","other":[1,}"#,
            #"{"format":"jpeg" "width":1}"#, #"{format:"jpeg"}"#, #"{"format":"jpeg","width":1"#,
        ]
        for key in keys {
            for value in values {
                texts.append(#"{"format":"heic","\#(key)":\#(value)}"#)
                texts.append(#"{"\#(key)":\#(value),"format":"jpeg","width":3}"#)
            }
        }
        for text in texts {
            let expected = try? JSONDecoder().decode(MediaMetadata.self, from: Data(text.utf8))
            #expect(MediaMetadata(catalogJSON: text) == expected, "\(text)")
        }
    }

    /// Up to 20 scalars from anywhere in Unicode, control characters included.
    static func randomString() -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...20) {
            let ranges: [ClosedRange<UInt32>] = [
                0...0x7F, 0x80...0x7FF, 0x800...0xD7FF, 0xE000...0xFFFF, 0x10000...0x10FFFF,
            ]
            if let scalar = Unicode.Scalar(UInt32.random(in: ranges.randomElement()!)) { scalars.append(scalar) }
        }
        return String(scalars)
    }
}
