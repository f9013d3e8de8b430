import Foundation
import Testing
@testable import AlbumKitMedia

/// WebM/Matroska, AVI and MPEG-TS built byte by byte: the cases ffmpeg does not write (live
/// recordings, audio-only files, hostile sizes), sequence headers, and the headers-only promise.
@Suite struct ContainerVideoTests {
    // MARK: Builders

    /// An EBML element with a 1-byte (or 8-byte, for `long`) size, or an unknown size.
    static func ebml(_ id: UInt32, _ payload: [UInt8], unknownSize: Bool = false) -> [UInt8] {
        let idBytes = withUnsafeBytes(of: id.bigEndian) { Array($0) }.drop(while: { $0 == 0 })
        if unknownSize { return Array(idBytes) + [0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] }
        let size = UInt64(payload.count) | 1 << 56
        return Array(idBytes) + withUnsafeBytes(of: size.bigEndian) { Array($0) } + payload
    }

    static func uint(_ id: UInt32, _ value: UInt64) -> [UInt8] {
        ebml(id, withUnsafeBytes(of: value.bigEndian) { Array($0) })
    }

    static let ebmlHeader = ebml(0x1A45_DFA3, ebml(0x4282, Array("webm".utf8)))
    static let info = ebml(
        0x1549_A966,
        uint(0x2A_D7B1, 1_000_000) + ebml(0x4489, withUnsafeBytes(of: (2500.0).bitPattern.bigEndian) { Array($0) }))

    static func track(type: UInt64, width: UInt64 = 640, height: UInt64 = 360) -> [UInt8] {
        ebml(0xAE, uint(0x83, type) + (type == 1 ? ebml(0xE0, uint(0xB0, width) + uint(0xBA, height)) : []))
    }

    static func webm(
        tracks: [[UInt8]], clusters: [UInt8] = [], segmentUnknown: Bool = false, info: [UInt8] = info
    ) -> [UInt8] {
        let body = info + ebml(0x1654_AE6B, tracks.flatMap { $0 }) + clusters
        let segment =
            segmentUnknown ? ebml(0x1853_8067, [], unknownSize: true) + body : ebml(0x1853_8067, body)
        return ebmlHeader + segment
    }

    static func chunk(_ id: String, _ payload: [UInt8]) -> [UInt8] {
        Array(id.utf8) + A.le32(UInt32(payload.count)) + payload + (payload.count % 2 == 1 ? [0] : [])
    }

    static func list(_ type: String, _ items: [UInt8]) -> [UInt8] { chunk("LIST", Array(type.utf8) + items) }

    static func avi(streams: [(type: String, format: [UInt8])], frames: Int = 25) -> [UInt8] {
        var avih = [UInt8](repeating: 0, count: 56)
        avih.replaceSubrange(0..<4, with: A.le32(40_000))
        avih.replaceSubrange(16..<20, with: A.le32(UInt32(frames)))
        let strls = streams.map { stream -> [UInt8] in
            var strh = [UInt8](repeating: 0, count: 56)
            strh.replaceSubrange(0..<4, with: Array(stream.type.utf8))
            strh.replaceSubrange(20..<24, with: A.le32(1))
            strh.replaceSubrange(24..<28, with: A.le32(25))
            strh.replaceSubrange(32..<36, with: A.le32(UInt32(frames)))
            return list("strl", chunk("strh", strh) + chunk("strf", stream.format))
        }
        let hdrl = list("hdrl", chunk("avih", avih) + strls.flatMap { $0 })
        let body = Array("AVI ".utf8) + hdrl + list("movi", chunk("00dc", [1, 2, 3, 4]))
        return chunk("RIFF", body)
    }

    static func bitmapInfo(width: Int32, height: Int32) -> [UInt8] {
        A.le32(40) + A.le32(UInt32(bitPattern: width)) + A.le32(UInt32(bitPattern: height))
            + [UInt8](repeating: 0, count: 28)
    }

    typealias A = AdversarialTests

    /// The error inspecting `bytes` fails with, or `nil` when they are accepted.
    static func failure(_ bytes: [UInt8]) -> MediaInspectionError? {
        if case .failure(let error) = inspect(bytes) { return error }
        return nil
    }

    /// A 188-byte transport packet on `pid` carrying `payload` (padded with an adaptation field).
    static func packet(pid: Int, unitStart: Bool, _ payload: [UInt8]) -> [UInt8] {
        precondition(payload.count <= 184)
        let header: [UInt8] = [0x47, UInt8(pid >> 8) | (unitStart ? 0x40 : 0), UInt8(pid & 0xFF)]
        if payload.count == 184 { return header + [0x10] + payload }
        let stuffing = 184 - payload.count - 1
        let adaptation: [UInt8] =
            stuffing == 0 ? [0] : [UInt8(stuffing), 0] + [UInt8](repeating: 0xFF, count: stuffing - 1)
        return header + [0x30] + adaptation + payload
    }

    /// A PSI section with its CRC, in a packet (pointer field 0).
    static func section(pid: Int, tableID: UInt8, _ body: [UInt8]) -> [UInt8] {
        let length = body.count + 5 + 4
        var section: [UInt8] = [tableID, 0xB0 | UInt8(length >> 8), UInt8(length & 0xFF), 0, 1, 0xC1, 0, 0] + body
        section += A.be32(crcValue(section))
        return packet(pid: pid, unitStart: true, [0] + section)
    }

    static func crcValue(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? crc << 1 ^ 0x04C1_1DB7 : crc << 1 }
        }
        return crc
    }

    static let pat = section(pid: 0, tableID: 0, [0, 1, 0xE1, 0x00])

    static func pmt(streams: [(type: UInt8, pid: Int)]) -> [UInt8] {
        let entries = streams.flatMap { stream -> [UInt8] in
            [stream.type, 0xE0 | UInt8(stream.pid >> 8), UInt8(stream.pid & 0xFF), 0xF0, 0]
        }
        return section(pid: 0x100, tableID: 2, [0xE1, 0x01, 0xF0, 0] + entries)
    }

    /// A PES packet start with a PTS, followed by `stream`.
    static func pes(pts: UInt64, _ stream: [UInt8]) -> [UInt8] {
        let p: [UInt8] = [
            0x21 | UInt8(pts >> 29 & 0x0E), UInt8(pts >> 22 & 0xFF), UInt8(pts >> 14 & 0xFE) | 1,
            UInt8(pts >> 7 & 0xFF), UInt8(pts << 1 & 0xFE) | 1,
        ]
        return [0, 0, 1, 0xE0, 0, 0, 0x80, 0x80, 5] + p + stream
    }

    // MARK: Matroska

    @Test func liveRecordingWithUnknownSizes() throws {
        // Given a WebM as a browser's recorder writes it: Segment and Cluster of unknown size
        let cluster =
            Self.ebml(0x1F43_B675, [], unknownSize: true) + Self.uint(0xE7, 0)
            + Self.ebml(0xA3, [0x81, 0, 0, 0x80, 1, 2])
        let bytes = Self.webm(
            tracks: [Self.track(type: 2), Self.track(type: 1)], clusters: cluster, segmentUnknown: true)
        // When it is inspected
        let metadata = try MediaInspector().inspect(BufferByteSource(bytes: bytes))
        // Then the video track's size and the duration are read, from the second track
        #expect(metadata.format == .webm && metadata.kind == .video)
        #expect(metadata.width == 640 && metadata.height == 360)
        #expect(metadata.duration == 2.5)
    }

    @Test func durationNoNumberCanHoldIsLeftOut() throws {
        // Given a Matroska whose Duration, 1e308 ticks of 1 ms, is infinite in seconds
        let duration = withUnsafeBytes(of: (1e308).bitPattern.bigEndian) { Array($0) }
        let info = Self.ebml(0x1549_A966, Self.uint(0x2A_D7B1, 1_000_000) + Self.ebml(0x4489, duration))
        let bytes = Self.webm(tracks: [Self.track(type: 1)], info: info)
        // When it is inspected
        let metadata = try MediaInspector().inspect(BufferByteSource(bytes: bytes))
        // Then it is a video without a duration, and its metadata can be stored as JSON (before, the
        // infinite duration failed every save of the batch it was in)
        #expect(metadata.kind == .video && metadata.width == 640)
        #expect(metadata.duration == nil)
        #expect(throws: Never.self) { try JSONEncoder().encode(metadata) }
    }

    @Test func numbersNoFileCanMeanAreDropped() {
        var metadata = MediaMetadata(format: .mp4)
        metadata.duration = .infinity
        metadata.latitude = .nan
        metadata.longitude = -.infinity
        metadata.altitude = -12.5
        #expect(metadata.duration == nil && metadata.latitude == nil && metadata.longitude == nil)
        #expect(metadata.altitude == -12.5)
    }

    @Test func audioOnlyMatroskaIsNotAVideo() throws {
        let bytes = Self.webm(tracks: [Self.track(type: 2)])
        let error = try #require(Self.failure(bytes), "accepted")
        #expect(error.kind == .notMedia)
        #expect(error.reason.contains("audio-only"))
    }

    @Test func otherEBMLDocumentIsNotMedia() throws {
        let bytes = Self.ebml(0x1A45_DFA3, Self.ebml(0x4282, Array("notes".utf8))) + Self.ebml(0x1853_8067, [])
        let error = try #require(Self.failure(bytes), "accepted")
        #expect(error.kind == .notMedia)
    }

    @Test func segmentClaimingExabytesIsCorrupt() throws {
        var bytes = Self.webm(tracks: [Self.track(type: 1)])
        let segment = Self.ebmlHeader.count + 4
        bytes.replaceSubrange(segment..<segment + 8, with: [0x01, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0])
        let reason = try #require(A().corruptReason(bytes))
        #expect(reason.contains("runs past"))
    }

    @Test func unknownSizeOutsideAClusterIsCorrupt() throws {
        let bytes =
            Self.ebmlHeader
            + Self.ebml(0x1853_8067, Self.info + Self.ebml(0x1654_AE6B, [], unknownSize: true) + Self.track(type: 1))
        #expect(A().corruptReason(bytes) != nil)
    }

    @Test func garbledTrackListIsCorrupt() throws {
        // A TrackEntry whose size runs past the end of Tracks.
        var tracks = Self.track(type: 1)
        tracks[1...8] = [0x01, 0, 0, 0, 0, 0, 0x10, 0]
        let bytes = Self.ebmlHeader + Self.ebml(0x1853_8067, Self.info + Self.ebml(0x1654_AE6B, tracks))
        let reason = try #require(A().corruptReason(bytes))
        #expect(reason.contains("Tracks"))
    }

    @Test func tooManyElementsIsCorrupt() throws {
        var voids: [UInt8] = []
        voids.reserveCapacity(2 * 210_000)
        for _ in 0..<210_000 { voids += [0xEC, 0x80] }
        let bytes = Self.ebmlHeader + Self.ebml(0x1853_8067, voids)
        let reason = try #require(A().corruptReason(bytes))
        #expect(reason.contains("more than"))
    }

    // MARK: AVI

    @Test func aviSizeFromTheBitmapHeaderAndDurationFromTheStream() throws {
        let bytes = Self.avi(streams: [
            ("auds", [1, 0, 1, 0] + A.le32(8000)), ("vids", Self.bitmapInfo(width: 320, height: -240)),
        ])
        let metadata = try MediaInspector().inspect(BufferByteSource(bytes: bytes))
        #expect(metadata.format == .avi)
        #expect(metadata.width == 320 && metadata.height == 240)
        #expect(metadata.duration == 1)
    }

    @Test func audioOnlyAVIIsNotAVideo() throws {
        let bytes = Self.avi(streams: [("auds", [1, 0, 1, 0] + A.le32(8000))])
        let error = try #require(Self.failure(bytes), "accepted")
        #expect(error.kind == .notMedia)
    }

    @Test func aviChunkClaimingFourGigabytesIsCorrupt() throws {
        var bytes = Self.avi(streams: [("vids", Self.bitmapInfo(width: 16, height: 12))])
        let hdrl = 12
        bytes.replaceSubrange(hdrl + 4..<hdrl + 8, with: [0xF0, 0xFF, 0xFF, 0xFF])
        let reason = try #require(A().corruptReason(bytes))
        #expect(reason.contains("runs past"))
    }

    @Test func waveIsNotMedia() throws {
        let bytes = Self.chunk("RIFF", Array("WAVE".utf8) + Self.chunk("fmt ", [1, 0, 1, 0]))
        let error = try #require(Self.failure(bytes), "accepted")
        #expect(error.kind == .notMedia)
    }

    // MARK: MPEG-TS

    @Test func audioOnlyTransportStreamIsNotAVideo() throws {
        let bytes = Self.pat + Self.pmt(streams: [(0x0F, 0x101)]) + Self.packet(pid: 0x101, unitStart: true, [1, 2])
        let error = try #require(Self.failure(bytes), "accepted")
        #expect(error.kind == .notMedia)
        #expect(error.reason.contains("audio-only"))
    }

    @Test func programMapWithBadChecksumIsCorrupt() throws {
        var pmt = Self.pmt(streams: [(0x1B, 0x101)])
        pmt[pmt.count - 1] ^= 0xFF
        let reason = try #require(A().corruptReason(Self.pat + pmt + Self.packet(pid: 0x1FFF, unitStart: false, [])))
        #expect(reason.contains("PMT"))
    }

    @Test func adaptationFieldLongerThanThePacketIsCorrupt() throws {
        var bytes = Self.pat + Self.pmt(streams: [(0x1B, 0x101)]) + Self.packet(pid: 0x101, unitStart: false, [1])
        bytes[2 * 188 + 4] = 200
        let reason = try #require(A().corruptReason(bytes))
        #expect(reason.contains("adaptation field"))
    }

    @Test func durationSpansTheTimestampsAndSurvivesAClockWrap() throws {
        // Frames every 3600 ticks (25 fps) from just before the 33-bit clock wraps.
        let start: UInt64 = (1 << 33) - 7200
        var bytes = Self.pat + Self.pmt(streams: [(0x02, 0x101)])
        let sequence: [UInt8] = [0, 0, 1, 0xB3, 0x2D, 0x01, 0xE0, 0x24]  // 720×480
        for frame in 0..<50 {
            let pts = (start + UInt64(frame) * 3600) & MPEGTSParser.clockMask
            bytes += Self.packet(pid: 0x101, unitStart: true, Self.pes(pts: pts, frame == 0 ? sequence : [0, 0, 1, 0]))
        }
        let metadata = try MediaInspector().inspect(BufferByteSource(bytes: bytes))
        #expect(metadata.format == .mpegTS)
        #expect(metadata.width == 720 && metadata.height == 480)
        #expect(metadata.duration == 2)
    }

    @Test func m2tsPacketsAreRecognised() throws {
        let packets =
            Self.pat + Self.pmt(streams: [(0x1B, 0x101)])
            + Self.packet(pid: 0x101, unitStart: true, Self.pes(pts: 0, []))
        let bytes = stride(from: 0, to: packets.count, by: 188).flatMap { [0, 0, 0, 0] + packets[$0..<$0 + 188] }
        let metadata = try MediaInspector().inspect(BufferByteSource(bytes: bytes))
        #expect(metadata.format == .m2ts)
        #expect(metadata.format.fileExtension == "m2ts")
    }

    @Test func textStartingWithGIsNotMedia() throws {
        let error = try #require(
            Self.failure(Array("Greetings from a text file that is long enough.\n".utf8)), "accepted")
        #expect(error.kind == .notMedia)
    }

    // MARK: Sequence headers

    @Test(arguments: [
        (1920, 1080, true, 100), (1920, 1080, false, 77), (1280, 720, true, 66), (1440, 1080, false, 100),
        (24, 18, true, 100),
    ])
    func h264SequenceParameterSet(width: Int, height: Int, progressive: Bool, profile: Int) throws {
        let sps = SPSWriter.h264(width: width, height: height, progressive: progressive, profile: UInt32(profile))
        let size = try #require(VideoSequenceHeader.size(in: [0, 0, 0, 1, 0x67] + sps, codec: .h264))
        #expect(size.width == width && size.height == height)
    }

    @Test func h264WithScalingMatricesAndEmulationPrevention() throws {
        let sps = SPSWriter.h264(width: 3840, height: 2160, progressive: true, profile: 100, scalingLists: true)
        let escaped = SPSWriter.escape(sps)
        #expect(escaped.count > sps.count, "the test must exercise emulation prevention")
        let size = try #require(VideoSequenceHeader.size(in: [0, 0, 1, 0x67] + escaped, codec: .h264))
        #expect(size.width == 3840 && size.height == 2160)
    }

    @Test func damagedSequenceHeadersGiveNoSize() {
        var random = SeededGenerator(seed: 7)
        for _ in 0..<2000 {
            let length = Int.random(in: 0..<64, using: &random)
            let noise = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            for codec in [VideoSequenceHeader.Codec.h264, .hevc, .mpegVideo] {
                let unit: [UInt8] = codec == .h264 ? [0x67] : codec == .hevc ? [0x42, 0x01] : [0xB3]
                if let size = VideoSequenceHeader.size(in: [0, 0, 1] + unit + noise, codec: codec) {
                    #expect((1...65_536).contains(size.width) && (1...65_536).contains(size.height))
                }
            }
        }
    }

    // MARK: Headers only

    @Test func largeTransportStreamReadsOnlyItsEnds() throws {
        // Given a 200 MB transport stream of 10 000 frames at 25 fps whose middle was never written
        // (its last 1 500 packets are padding, as broadcast streams carry)
        let frames = 10_000
        let sequence: [UInt8] = [0, 0, 1, 0xB3, 0x50, 0x02, 0xD0, 0x24]  // 1280×720
        func frame(_ index: Int) -> [UInt8] {
            Self.packet(
                pid: 0x101, unitStart: true, Self.pes(pts: UInt64(index) * 3600, index == 0 ? sequence : [0, 0, 1, 0]))
        }
        let head = Self.pat + Self.pmt(streams: [(0x02, 0x101)]) + (0..<20).flatMap(frame)
        let padding = [[UInt8]](repeating: Self.packet(pid: 0x1FFF, unitStart: false, []), count: 1500).flatMap { $0 }
        let tail = padding + (frames - 20..<frames).flatMap(frame)
        let size: UInt64 = 188 * 1_115_000
        let url = try A().sparseFile(head: head, size: size, tail: tail)
        defer { try? FileManager.default.removeItem(at: url) }
        // When it is inspected
        let source = CountingByteSource(try FileByteSource(url: url))
        let metadata = try MediaInspector().inspect(source)
        // Then its size and duration come from its two ends only (the hole's zeros would be lost sync)
        #expect(metadata.format == .mpegTS && metadata.width == 1280 && metadata.height == 720)
        #expect(metadata.duration == 400)
        #expect(source.bytesRead < 1 << 20, "read \(source.bytesRead) bytes of \(size)")
        print("headers-only: 200 MB MPEG-TS → \(source.bytesRead) bytes in \(source.readCount) reads")
    }

    @Test func largeMatroskaReadsOnlyHeaders() throws {
        // Given a 200 MB Matroska whose one Cluster fills the file
        let size: UInt64 = 200 << 20
        let head =
            Self.ebmlHeader + Self.ebml(0x1853_8067, [], unknownSize: true) + Self.info
            + Self.ebml(0x1654_AE6B, Self.track(type: 1))
        let clusterHeader: [UInt8] = [0x1F, 0x43, 0xB6, 0x75, 0x01] + A.be32(0) + [0, 0, 0]
        let clusterSize = size - UInt64(head.count + clusterHeader.count)
        var header = clusterHeader
        for k in 0..<7 { header[5 + k] = UInt8(truncatingIfNeeded: clusterSize >> (8 * (6 - UInt64(k)))) }
        let url = try A().sparseFile(head: head + header, size: size)
        defer { try? FileManager.default.removeItem(at: url) }
        let source = CountingByteSource(try FileByteSource(url: url))
        let metadata = try MediaInspector().inspect(source)
        #expect(metadata.format == .webm && metadata.duration == 2.5)
        #expect(source.bytesRead < 1 << 20, "read \(source.bytesRead) bytes of \(size)")
    }
}
