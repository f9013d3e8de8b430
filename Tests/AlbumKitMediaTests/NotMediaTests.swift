import Testing
@testable import AlbumKitMedia

/// Anything that is not a photo or video is `.notMedia`, whatever its name.
@Suite struct NotMediaTests {
    static let samples: [(String, [UInt8])] = {
        var random = SeededGenerator(seed: 42)
        return [
            ("empty", []),
            ("text", Array("Dear diary, today I saved a photo to an album.\n".utf8)),
            ("pdf", Array("%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n".utf8)),
            ("zip", [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00] + Array(repeating: 0, count: 40)),
            ("elf", [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00] + Array(repeating: 0, count: 56)),
            ("random", (0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }),
            ("one byte", [0xFF]),
            ("BM text", Array("BM is the start of this sentence, not a bitmap".utf8)),
            ("m4a audio", [0, 0, 0, 20] + Array("ftypM4A ".utf8) + [0, 0, 0, 0] + Array("M4A ".utf8)),
        ]
    }()

    @Test(arguments: samples.map(\.0))
    func isNotMedia(_ name: String) throws {
        let bytes = try #require(Self.samples.first { $0.0 == name }).1
        #expect(throws: MediaInspectionError.self) { try MediaInspector().inspect(BufferByteSource(bytes: bytes)) }
        guard case .failure(let error) = inspect(bytes) else { return }
        #expect(error.kind == .notMedia, "\(name): \(error.reason)")
    }

    @Test func failingSourceIsUnreadable() {
        #expect(throws: MediaInspectionError(.unreadable, "the file could not be read (Failure())")) {
            try MediaInspector().inspect(FailingByteSource())
        }
    }
}
