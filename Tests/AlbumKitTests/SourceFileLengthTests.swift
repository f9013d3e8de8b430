import AlbumKitConformance
import Foundation
import Testing

/// No Swift file in `Sources/` grows past ``limit`` lines: a type that outgrows it is split along
/// its seams (one primary type per file, its concerns in `Type+Concern.swift` extensions), so a
/// reader finds each part by its file's name.
@Suite("Source files stay small")
struct SourceFileLengthTests {
    static let limit = 550

    /// `file: N lines` for each Swift file under `sources` longer than ``limit``.
    static func tooLong(under sources: URL) throws -> [String] {
        var found: [String] = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let url = files?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let lines =
                try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
                .count - 1
            if lines > limit { found.append("\(url.path.dropFirst(sources.path.count + 1)): \(lines) lines") }
        }
        return found.sorted()
    }

    @Test func everySourceFileIsAtMostTheLimit() throws {
        let sources = Fixture.packageRoot.appendingPathComponent("Sources")
        #expect(try Self.tooLong(under: sources) == [])
    }

    /// The check counts lines as `wc -l` does, and finds a file one line too long.
    @Test func aFileOneLineTooLongIsFound() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let text = String(repeating: "let x = 1\n", count: Self.limit)
            _ = Fixture.write(Data(text.utf8), named: "Fits.swift", in: dir)
            _ = Fixture.write(Data((text + "let y = 2\n").utf8), named: "Long.swift", in: dir)
            let found = try Self.tooLong(under: dir)
            #expect(found == ["Long.swift: \(Self.limit + 1) lines"])
        }
    }
}
