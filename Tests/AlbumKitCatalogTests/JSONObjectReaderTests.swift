import Foundation
import Testing

@testable import AlbumKitCore

/// The journal's lines are read without `JSONDecoder`, and must read exactly as it reads them:
/// the same record for every line it accepts, none for every line it refuses.
@Suite struct JSONObjectReaderTests {
    /// What `JSONDecoder` makes of `line` (`nil` when it refuses it).
    func decoded(_ line: [UInt8]) -> FlatRecord? {
        try? JSONDecoder().decode(FlatRecord.self, from: Data(line))
    }

    func randomRecord(_ round: Int) -> FlatRecord {
        func maybe<T>(_ value: T) -> T? { Bool.random() ? value : nil }
        return FlatRecord(
            op: [.save, .createAlbum, .renameAlbum, .deleteAlbum, .removeFromAlbum, .deleteAsset][round % 6],
            asset: maybe(JSONObjectWriterTests.oddStrings.randomElement()!),
            path: maybe(JSONObjectWriterTests.randomString()), name: maybe(JSONObjectWriterTests.randomString()),
            size: maybe([0, 1, .max, .min, 143_590].randomElement()!),
            sha256: maybe(String(repeating: "ab", count: 32)),
            added: maybe(JSONObjectWriterTests.doubles.randomElement()!), album: maybe(UUID().uuidString.lowercased()),
            title: maybe(JSONObjectWriterTests.oddStrings.randomElement()!), at: maybe(Double.random(in: -1e12...1e12)),
            pending: maybe(JSONObjectWriterTests.randomString()), batch: maybe(JSONObjectWriterTests.randomString()),
            of: maybe(Int.random(in: 0...1000)))
    }

    @Test func ourRecordsReadBackExactlyAsJSONDecoderReadsThem() {
        for round in 0..<500 {
            let record = randomRecord(round)
            let read = FlatRecord(line: record.json)
            #expect(read == record, "\(String(decoding: record.json, as: UTF8.self))")
            #expect(read == decoded(record.json))
        }
    }

    /// Lines `JSONEncoder` writes (older journals): `\/`, `\u` escapes, pretty spacing.
    @Test func jsonEncodersRecordsReadTheSame() throws {
        for round in 0..<300 {
            let record = randomRecord(round)
            let encoder = JSONEncoder()
            encoder.outputFormatting = round % 2 == 0 ? [.sortedKeys] : [.prettyPrinted]
            var line = [UInt8](try encoder.encode(record))
            if round % 2 == 1 { line = line.filter { $0 != 0x0A } }  // one line, spaces kept
            #expect(FlatRecord(line: line) == record, "\(String(decoding: line, as: UTF8.self))")
        }
        let escaped = Array(#"{"op":"save","path":"originals\/ab\/x.jpg","name":"\u00e9\ud83d\udcf7\u0041\b\f"}"#.utf8)
        let record = try #require(FlatRecord(line: escaped))
        #expect(record.path == "originals/ab/x.jpg")
        #expect(record.name == "é📷A\u{8}\u{C}")
        #expect(record == decoded(escaped))
    }

    /// Every line `JSONDecoder` refuses is refused: cut short anywhere (a crash mid-append), text
    /// after the object, wrong types (a nested value where a string goes), raw control characters,
    /// lone surrogates; members a later version may add, nested or not, are passed over.
    @Test func badLinesAreRefusedAsJSONDecoderRefusesThem() {
        let whole = FlatRecord(
            op: .save, asset: "a\"b", path: "p", name: "n\u{1}é", size: 12, sha256: "s", added: 1.5, album: "al",
            title: "t", at: 2, pending: "pe", batch: "b", of: 3
        ).json
        for length in 0..<whole.count {
            let cut = Array(whole[0..<length])
            #expect(FlatRecord(line: cut) == nil, "\(String(decoding: cut, as: UTF8.self))")
            #expect(decoded(cut) == nil)
        }
        let bad = [
            #"{"op":"save","size":"12"}"#, #"{"op":"save","size":1.5}"#, #"{"op":"save","name":12}"#,
            #"{"op":"save","added":"now"}"#, #"{"op":"save","asset":{"id":"a"}}"#, #"{"op":"save","of":[1]}"#,
            #"{"op":"save"} x"#, #"{"op":"save"}}"#, #"{"op":"unknown"}"#, #"{"name":"x"}"#,
            "{\"op\":\"save\",\"name\":\"a\u{1}\"}",
            #"{"op":"save","name":"\ud83d"}"#, #"{"op":"save","name":"\udcf7x"}"#, #"{"op":"save","name":"\x"}"#,
            #"{,}"#, #"{"op" "save"}"#, #"["save"]"#, "", " ", #"{"op":"save","size":-}"#,
            #"{"op":"save","size":true}"#, #"{"op":"save","of":99999999999999999999}"#,
            #"{"op":"save","more":[1,}"#, #"{"op":"save","more":{"a"}}"#, #"{"op":"save","more":[1]]}"#,
        ]
        for text in bad {
            let line = Array(text.utf8)
            #expect(FlatRecord(line: line) == nil, "\(text)")
            #expect(decoded(line) == nil, "JSONDecoder accepts \(text)")
        }
        let good = [
            #" {"op":"save"} "#, #"{"op":"save","size":null,"name":null}"#, #"{"op":"save","size":12.0}"#,
            #"{"op":"save","size":1e3,"added":-0.5e-3}"#, #"{"op":"save",}"#,
            #"{"op":"save","extra":true,"more":[1,{"a":[]}]}"#,
        ]
        for text in good {
            let line = Array(text.utf8)
            #expect(FlatRecord(line: line) == decoded(line), "\(text)")
        }
    }
}
