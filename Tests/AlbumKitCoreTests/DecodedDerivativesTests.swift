import AlbumKitMedia
import AlbumKitPreviews
import AlbumTestSupport
import Foundation
import Testing

@testable import AlbumKitCore

/// A kept thumbnail is decoded the first time its bytes are read back, and believed from the hash of
/// its bytes after that: reading the same thumbnail again cost a decode each time, which held
/// `album serve` to a few hundred thumbnails a second. Bytes changed since are decoded again.
@Suite struct DecodedDerivativesTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../AlbumKitMediaTests/Fixtures/corpus")

    /// A JPEG of at most 256 pixels made by libvips from a photo of the test corpus.
    static func thumbnail() throws -> RenderedPreview {
        let photo = try [UInt8](Data(contentsOf: corpus.appendingPathComponent("jpeg-plain.jpg")))
        return try PreviewRenderer.load().render(.bytes(photo), maxPixelSize: 256)
    }

    @Test func theSameBytesAreDecodedOnceAndBelievedAfter() throws {
        try ExternalTool.requireLibvips()
        let made = try Self.thumbnail()
        let decoded = DecodedDerivatives()
        let first = decoded.believed(made.bytes, largestSide: 256)
        #expect(first?.pixelWidth == made.pixelWidth && first?.pixelHeight == made.pixelHeight)
        #expect(decoded.decodes == 1)
        for _ in 0..<20 {
            let again = decoded.believed(made.bytes, largestSide: 256)
            #expect(again == first)
        }
        #expect(decoded.decodes == 1, "read back 20 times more, decoded once")
    }

    @Test func whatIsRememberedStillKeepsItsSizeAndFormat() throws {
        try ExternalTool.requireLibvips()
        let made = try Self.thumbnail()
        let decoded = DecodedDerivatives()
        #expect(decoded.believed(made.bytes, largestSide: 256) != nil)
        // Kept where only smaller ones belong, or in a format not allowed there: not believed.
        #expect(decoded.believed(made.bytes, largestSide: max(made.pixelWidth, made.pixelHeight) - 1) == nil)
        #expect(decoded.believed(made.bytes, largestSide: 256, formats: [.png]) == nil)
        #expect(decoded.decodes == 1)
    }

    @Test func bytesDamagedSinceTheyDecodedAreDecodedAgainAndRefused() throws {
        try ExternalTool.requireLibvips()
        let made = try Self.thumbnail()
        let decoded = DecodedDerivatives()
        #expect(decoded.believed(made.bytes, largestSide: 256) != nil)
        // Cut short: the header still says a 256-pixel JPEG, the scan ends early.
        let cut = Array(made.bytes.prefix(made.bytes.count * 2 / 3))
        #expect(decoded.believed(cut, largestSide: 256) == nil)
        #expect(decoded.believed(cut, largestSide: 256) == nil, "refused again, not remembered")
        #expect(decoded.decodes == 3)
        #expect(decoded.believed(made.bytes, largestSide: 256) != nil)
        #expect(decoded.decodes == 3)
    }

    @Test func aFullMemoryForgetsAndDecodesAgain() throws {
        try ExternalTool.requireLibvips()
        let made = try Self.thumbnail()
        let other = try PreviewRenderer.load().render(.bytes(made.bytes), maxPixelSize: 100)
        let decoded = DecodedDerivatives(capacity: 1)
        #expect(decoded.believed(made.bytes, largestSide: 256) != nil)
        #expect(decoded.believed(other.bytes, largestSide: 256) != nil)
        #expect(decoded.believed(made.bytes, largestSide: 256) != nil)
        #expect(decoded.decodes == 3)
    }

    /// Through a catalog's folder of kept thumbnails: the second read of a file is not decoded, and a
    /// file replaced by other bytes under the same name is.
    @Test func aStoreDecodesAFileOnceUntilItsBytesChange() throws {
        try ExternalTool.requireLibvips()
        let made = try Self.thumbnail()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("decoded-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }  // a temporary folder: left behind at worst
        let decoded = DecodedDerivatives()
        let store = PreviewStore(root: folder.path, decoded: decoded)
        let name = "derivatives/256/ab/" + String(repeating: "ab", count: 32) + ".jpg"
        try store.keep(made, at: name)
        #expect(store.read(name, largestSide: 256)?.bytes == made.bytes)
        #expect(store.read(name, largestSide: 256)?.bytes == made.bytes)
        #expect(decoded.decodes == 1)
        var damaged = made.bytes
        damaged[damaged.count / 2] ^= 0xFF
        damaged.removeLast(damaged.count / 3)
        try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        try Data(damaged).write(to: folder.appendingPathComponent(name))
        #expect(store.read(name, largestSide: 256) == nil)
        #expect(decoded.decodes == 2)
    }
}
