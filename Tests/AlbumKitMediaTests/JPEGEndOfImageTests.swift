import Testing

@testable import AlbumKitMedia

/// The end-of-image search over JPEGs with bytes after the image (Motion Photos append a video).
@Suite struct JPEGEndOfImageTests {
    /// A minimal baseline JPEG: SOI, a 1×1 frame header, a scan header, `scan` as entropy-coded
    /// data, EOI, then `trailer`.
    static func jpeg(scan: [UInt8], trailer: [UInt8]) -> [UInt8] {
        let frame: [UInt8] = [0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x01, 0x00, 0x01, 0x01, 0x01, 0x11, 0x00]
        let scanHeader: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00]
        return [0xFF, 0xD8] + frame + scanHeader + scan + [0xFF, 0xD9] + trailer
    }

    /// `count` entropy-coded bytes: every `FF` stuffed with `00`, as an encoder writes them.
    static func entropyCoded(count: Int) -> [UInt8] {
        var random = SeededGenerator(seed: 7)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 1)
        while bytes.count < count {
            let byte = UInt8.random(in: 0...255, using: &random)
            bytes.append(byte)
            if byte == 0xFF { bytes.append(0x00) }
        }
        bytes.removeLast(bytes.count - count)
        if bytes.last == 0xFF { bytes[count - 1] = 0x11 }
        return bytes
    }

    static let trailer = Array("a trailer that does not end with the marker".utf8) + [0xFF, 0xFF, 0x00, 0x01]

    @Test(arguments: [0, 100, 70_000, (1 << 20) - 200, 3 << 20])
    func findsTheMarkerBeforeATrailer(scanBytes: Int) throws {
        let bytes = Self.jpeg(scan: Self.entropyCoded(count: scanBytes), trailer: Self.trailer)
        #expect(try MediaInspector().inspect(BufferByteSource(bytes: bytes)).format == .jpeg)
    }

    /// The marker's `FF` as the last byte of one 1 MiB read and `D9` as the first of the next.
    @Test func findsTheMarkerAcrossTwoReads() throws {
        // Reads start where the scan data starts; the marker lands `shift` bytes from the second read.
        for shift in -2...1 {
            let scan = Self.entropyCoded(count: (1 << 20) - 1 + shift)
            let bytes = Self.jpeg(scan: scan, trailer: Self.trailer)
            #expect(try MediaInspector().inspect(BufferByteSource(bytes: bytes)).format == .jpeg, "shift \(shift)")
        }
    }

    @Test func aCutImageIsCorrupt() {
        let whole = Self.jpeg(scan: Self.entropyCoded(count: 2 << 20), trailer: [])
        let cut = Array(whole.dropLast(2)) + [0xFF]
        #expect(throws: MediaInspectionError.self) { try MediaInspector().inspect(BufferByteSource(bytes: cut)) }
        guard case .failure(let error) = inspect(cut) else { return }
        #expect(error.kind == .corrupt)
    }

    @Test func markerSearchMatchesAByteByByteScan() {
        var random = SeededGenerator(seed: 11)
        for _ in 0..<2_000 {
            let count = Int.random(in: 0...40, using: &random)
            let bytes = (0..<count).map { _ in [0xFF, 0xD9, 0x00, 0x42][Int.random(in: 0...3, using: &random)] as UInt8
            }
            let expected = zip(bytes, bytes.dropFirst()).contains { $0 == 0xFF && $1 == 0xD9 }
            #expect(JPEGParser.containsEndOfImage(bytes) == expected, "\(bytes)")
        }
    }
}
