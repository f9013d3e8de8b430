import Testing
@testable import AlbumKitMedia

/// HEIF display transforms (irot/imir) decide the displayed size; missing parts are corrupt.
@Suite struct HEIFTransformTests {
    typealias A = AdversarialTests

    static func fullBox(_ type: String, _ payload: [UInt8]) -> [UInt8] { A.box(type, [0, 0, 0, 0] + payload) }

    /// A minimal HEIC: one 'hvc1' item, ispe 16×12 plus `extra` properties, 4 bytes of data in mdat.
    static func heic(extraProperties: [[UInt8]], dataLength: UInt32 = 4) -> [UInt8] {
        let hdlr = fullBox("hdlr", [0, 0, 0, 0] + Array("pict".utf8) + Array(repeating: 0, count: 13))
        let pitm = fullBox("pitm", [0, 1])
        let infe = A.box("infe", [2, 0, 0, 0, 0, 1, 0, 0] + Array("hvc1".utf8) + [0])
        let iinf = fullBox("iinf", [0, 1] + infe)
        let ispe = fullBox("ispe", A.be32(16) + A.be32(12))
        let properties = [ispe] + extraProperties
        let ipco = A.box("ipco", properties.flatMap { $0 })
        let ipma = fullBox(
            "ipma", A.be32(1) + [0, 1, UInt8(properties.count)] + (1...properties.count).map { UInt8($0) })
        let iprp = A.box("iprp", ipco + ipma)
        func meta(_ offset: UInt32) -> [UInt8] {
            let iloc = fullBox("iloc", [0x44, 0x00, 0, 1, 0, 1, 0, 0, 0, 1] + A.be32(offset) + A.be32(dataLength))
            return fullBox("meta", hdlr + pitm + iinf + iloc + iprp)
        }
        let prefix = A.ftypHEIC.count + meta(0).count + 8
        return A.ftypHEIC + meta(UInt32(prefix)) + A.box("mdat", [1, 2, 3, 4])
    }

    @Test func ispeWithoutTransform() throws {
        let metadata = try MediaInspector().inspect(BufferByteSource(bytes: Self.heic(extraProperties: [])))
        #expect(metadata.format == .heic)
        #expect(metadata.width == 16 && metadata.height == 12)
    }

    @Test(arguments: [(0, 16, 12), (1, 12, 16), (2, 16, 12), (3, 12, 16)])
    func irotQuarterTurnsSwapTheAxes(angle: UInt8, width: Int, height: Int) throws {
        let irot = A.box("irot", [angle])
        let metadata = try MediaInspector().inspect(BufferByteSource(bytes: Self.heic(extraProperties: [irot])))
        #expect(metadata.width == width && metadata.height == height)
    }

    @Test func itemDataPastTheEndIsCorrupt() throws {
        let bytes = Self.heic(extraProperties: [], dataLength: 4096)
        guard case .failure(let error) = inspect(bytes) else {
            Issue.record("accepted")
            return
        }
        #expect(error.kind == .corrupt)
        #expect(error.reason.contains("item 1"))
    }
}
