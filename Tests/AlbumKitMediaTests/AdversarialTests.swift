import Foundation
import Testing
@testable import AlbumKitMedia

/// Inputs built to make a parser allocate, loop or recurse without bound, and the headers-only promise.
@Suite struct AdversarialTests {
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(UInt32(8 + payload.count)) + Array(type.utf8) + payload
    }

    static func be32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
    static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    static let ftypMP4 = box("ftyp", Array("isom".utf8) + [0, 0, 2, 0] + Array("isommp41".utf8))
    static let ftypHEIC = box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))

    /// A little-endian TIFF: header, then one IFD at offset 8 with (tag, type, count, value) entries.
    static func tiff(_ entries: [(UInt16, UInt16, UInt32, UInt32)], next: UInt32 = 0) -> [UInt8] {
        var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + le32(8) + le16(UInt16(entries.count))
        for (tag, type, count, value) in entries { bytes += le16(tag) + le16(type) + le32(count) + le32(value) }
        return bytes + le32(next)
    }

    func corruptReason(_ bytes: [UInt8]) -> String? {
        if case .failure(let error) = inspect(bytes), error.kind == .corrupt { return error.reason }
        return nil
    }

    @Test func boxClaimingFourGigabytes() throws {
        let bytes = Self.ftypMP4 + Self.be32(0xFFFF_FFFF) + Array("moov".utf8) + Array(repeating: 0, count: 64)
        let reason = try #require(corruptReason(bytes))
        #expect(reason.contains("runs past the end of the file"))
    }

    @Test func largeSizeClaimingExabytes() throws {
        let bytes = Self.ftypMP4 + Self.be32(1) + Array("mdat".utf8) + [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(corruptReason(bytes) != nil)
    }

    @Test func deepNestingTerminates() {
        // 100 000 boxes, each the only child of the previous one, inside moov.
        let depth = 100_000
        var bytes = Self.ftypMP4
        var size = UInt32(8 * depth)
        for level in 0..<depth {
            bytes += Self.be32(size) + Array((level == 0 ? "moov" : "trak").utf8)
            size -= 8
        }
        let result = inspect(bytes)
        if case .success = result { Issue.record("a moov without mvhd was accepted") }
    }

    @Test func tooManyBoxesIsCorrupt() throws {
        var bytes = Self.ftypMP4
        bytes.reserveCapacity(8 * 210_000)
        for _ in 0..<210_000 { bytes += [0, 0, 0, 8] + Array("free".utf8) }
        let reason = try #require(corruptReason(bytes))
        #expect(reason.contains("more than"))
    }

    @Test func heicItemCountsAreBounded() {
        // iinf claiming 4 billion entries and iloc claiming 65 535 items with no data.
        let iinf = Self.box("iinf", [0, 0, 0, 0, 0xFF, 0xFF])
        let iloc = Self.box("iloc", [0, 0, 0, 0, 0x44, 0x00, 0xFF, 0xFF])
        let meta = Self.box("meta", [0, 0, 0, 0] + iinf + iloc)
        #expect(corruptReason(Self.ftypHEIC + meta) != nil)
    }

    @Test func tiffDirectoryLoopIsCorrupt() throws {
        let bytes = Self.tiff([(0x100, 3, 1, 16), (0x101, 3, 1, 12)], next: 8)
        let reason = try #require(corruptReason(bytes))
        #expect(reason.contains("loops"))
    }

    @Test func exifDirectoryLoopInJPEGKeepsTheImage() throws {
        // An EXIF block whose IFD0 points back to itself and whose EXIF IFD is IFD0.
        let exif = Array("Exif\0\0".utf8) + Self.tiff([(0x112, 3, 1, 6), (0x8769, 4, 1, 8)], next: 8)
        let app1 = [0xFF, 0xE1] + [UInt8((exif.count + 2) >> 8), UInt8((exif.count + 2) & 0xFF)] + exif
        let sof: [UInt8] = [0xFF, 0xC0, 0, 11, 8, 0, 12, 0, 16, 1, 1, 0x11, 0]
        let sos: [UInt8] = [0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 0x3F, 0]
        let bytes: [UInt8] = [0xFF, 0xD8] + app1 + sof + sos + [0x12, 0x34] + [0xFF, 0xD9]
        let metadata = try MediaInspector().inspect(BufferByteSource(bytes: bytes))
        #expect(metadata.format == .jpeg)
        #expect(metadata.orientation == 6)
        #expect(metadata.width == 12 && metadata.height == 16)
    }

    @Test func hugeTagCountsDoNotAllocate() throws {
        // StripOffsets claiming 1 billion LONG values at an offset outside the file.
        let bytes = Self.tiff([(0x100, 3, 1, 16), (0x101, 3, 1, 12), (0x111, 4, 1_000_000_000, 0x100)])
        #expect(corruptReason(bytes) != nil)
    }

    @Test func pngChunkClaimingTwoGigabytes() throws {
        let bytes: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Self.be32(0x7FFF_FFFF) + Array("IHDR".utf8) + [1, 2, 3]
        let reason = try #require(corruptReason(bytes))
        #expect(reason.contains("IHDR"))
    }

    // MARK: Headers only

    /// Writes `head`, then a sparse hole up to `size`, then `tail`, and returns the file.
    func sparseFile(head: [UInt8], size: UInt64, tail: [UInt8] = []) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("albumkit-media-\(UUID().uuidString)")
        try Data(head).write(to: url)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.truncate(atOffset: size - UInt64(tail.count))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(tail))
        return url
    }

    @Test func largeVideoReadsOnlyHeaders() throws {
        // Given a 200 MB MP4 (ftyp, a 200 MB mdat, then moov, as cameras write it)
        let fixture = Corpus.bytes("corpus/mp4-plain.mp4")
        let ftypLength = Int(fixture.u32(0))
        var moov: [UInt8] = []
        var offset = 0
        while offset + 8 <= fixture.count {
            let size = Int(fixture.u32(offset))
            if fixture.fourCC(offset + 4) == "moov" { moov = Array(fixture[offset..<offset + size]) }
            offset += max(size, 8)
        }
        let size: UInt64 = 200 << 20
        let mdatSize = UInt32(size - UInt64(ftypLength) - UInt64(moov.count))
        let url = try sparseFile(
            head: Array(fixture[0..<ftypLength]) + Self.be32(mdatSize) + Array("mdat".utf8),
            size: size, tail: moov)
        defer { try? FileManager.default.removeItem(at: url) }
        // When it is inspected through a counting file source
        let source = CountingByteSource(try FileByteSource(url: url))
        let metadata = try MediaInspector().inspect(source)
        // Then the metadata is the small file's and well under 1 MB was read
        #expect(metadata.format == .mp4)
        #expect(metadata.duration == 1)
        #expect(metadata.captureDate == "2024-05-01T10:20:30Z")
        #expect(metadata.width == 16 && metadata.height == 12)
        #expect(source.bytesRead < 1 << 20, "read \(source.bytesRead) bytes of \(size)")
        print("headers-only: 200 MB MP4 → \(source.bytesRead) bytes in \(source.readCount) reads")
    }

    @Test func largeRawReadsOnlyHeaders() throws {
        // Given a 200 MB raw-like TIFF whose CFA strip fills the file
        let size: UInt64 = 200 << 20
        let make = Array("NIKON CORPORATION\0".utf8)
        var entries: [(UInt16, UInt16, UInt32, UInt32)] = [
            (0x100, 4, 1, 8000), (0x101, 4, 1, 6000), (0x106, 3, 1, 32803), (0x10F, 2, UInt32(make.count), 0),
            (0x111, 4, 1, 4096), (0x112, 3, 1, 8), (0x117, 4, 1, UInt32(size - 4096)),
        ]
        let headerLength = 8 + 2 + 12 * entries.count + 4
        entries[3].3 = UInt32(headerLength)
        let head = Self.tiff(entries) + make
        let url = try sparseFile(head: head, size: size)
        defer { try? FileManager.default.removeItem(at: url) }
        // When it is inspected
        let source = CountingByteSource(try FileByteSource(url: url))
        let metadata = try MediaInspector().inspect(source)
        // Then it is a raw photo, rotated, and only the header was read
        #expect(metadata.format == .raw)
        #expect(metadata.make == "NIKON CORPORATION")
        #expect(metadata.width == 6000 && metadata.height == 8000)
        #expect(source.bytesRead < 1 << 20, "read \(source.bytesRead) bytes of \(size)")
        print("headers-only: 200 MB raw → \(source.bytesRead) bytes in \(source.readCount) reads")
    }

    @Test(arguments: [[0x00] as [UInt8], [0xFF, 0x00]])
    func jpegStrayBytesAreBounded(run: [UInt8]) throws {
        // A JPEG header, then 4 MB that hold no marker, then a frame and a scan: libjpeg would skip
        // it all; AlbumKit gives up after 1 MB instead of reading the whole file.
        var filler = [UInt8](repeating: 0, count: 4 << 20)
        if run.count == 2 { for i in stride(from: 0, to: filler.count, by: 2) { filler[i] = 0xFF } }
        let whole = JPEGEndOfImageTests.jpeg(scan: [1, 2, 3], trailer: [])
        let comment: [UInt8] = [0xFF, 0xFE, 0x00, 0x04, 0x41, 0x42]  // a comment segment, then the filler
        let bytes = Array(whole[0..<2]) + comment + filler + Array(whole[2...])
        let source = CountingByteSource(BufferByteSource(bytes: bytes))
        let result = Result { () throws(MediaInspectionError) in try MediaInspector().inspect(source) }
        #expect(
            result.error?.kind == .corrupt && result.error?.reason.contains("without a marker") == true, "\(result)")
        #expect(source.bytesRead < 2 << 20, "read \(source.bytesRead) bytes")
        // A few stray bytes are skipped
        let few = Array(whole[0..<2]) + comment + Array(filler[0..<1000]) + Array(whole[2...])
        #expect(try MediaInspector().inspect(BufferByteSource(bytes: few)).warnings.count == 1)
    }
}
