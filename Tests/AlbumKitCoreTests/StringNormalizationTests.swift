import Foundation
import Testing

@testable import AlbumKitCore

@Suite("Trimming and NFC without bridging to NSString")
struct StringNormalizationTests {
    @Test func trimmingMatchesFoundationForEveryScalarOfTheFirstPlanes() {
        // Given every scalar up to U+3100 (all of Unicode's spaces and line breaks but none) around a letter
        var differences: [UInt32] = []
        for value in UInt32(0)..<0x3100 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let padded = "\(scalar)\(scalar)a\u{301} b\(scalar)"
            if padded.trimmed() != padded.trimmingCharacters(in: .whitespacesAndNewlines) { differences.append(value) }
        }
        // Then the result is Foundation's for each
        #expect(differences.isEmpty, "\(differences.prefix(20).map { String($0, radix: 16) })")
        for text in ["", " ", "\n\t \u{3000}", "x", "  Trips  ", "\u{2029}Trips\u{85}", "\u{FEFF}Trips"] {
            #expect(
                text.trimmed() == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(Array(text.unicodeScalars))")
        }
    }

    @Test func nfcMatchesFoundation() {
        for text in [
            "Trips", "", "Cafe\u{301}", "Caf\u{E9}", "\u{1100}\u{1161}\u{11A8}", "A\u{30A}ngstr\u{F6}m", "~!\u{7F}",
        ] {
            #expect(text.nfc == text.precomposedStringWithCanonicalMapping)
            #expect(Array(text.nfc.unicodeScalars) == Array(text.precomposedStringWithCanonicalMapping.unicodeScalars))
        }
    }
}
