/// Checks an MPEG transport stream and reads its picture size and duration from headers only.
///
/// A transport stream is a run of fixed-size packets (188 bytes, or 192 in M2TS/AVCHD with a
/// 4-byte time code before each), each starting with the sync byte `0x47`. The parser reads the
/// first packets for the program tables (PAT, then PMT, each checked by its CRC), the video
/// stream's first timestamps and its sequence header (MPEG-2, H.264 or HEVC), then the last
/// packets for the last timestamp. Every packet it reads must be in sync, and the file must end
/// on a packet boundary; a file cut short or garbled is corrupt. Middle packets are not read.
struct MPEGTSParser {
    /// Bytes read at the start, at most, to find the tables and the sequence header.
    static let headBudget = 2 << 20
    /// Bytes read at the end for the last timestamp.
    static let tailBudget = 256 << 10
    /// Packets read per call.
    static let packetsPerRead = 256

    let reader: ByteReader
    let packetSize: Int
    let syncOffset: Int
    var format: MediaFormat { packetSize == 192 ? .m2ts : .mpegTS }
    private var name: String { packetSize == 192 ? "M2TS" : "MPEG-TS" }

    /// What the scan has found so far.
    private struct Scan {
        var sections: [Int: [UInt8]] = [:]
        var programMaps: Set<Int> = []
        var hasProgramTable = false
        var hasProgramMap = false
        var hasAudio = false
        var video: (pid: Int, streamType: UInt8)?
        var elementary: [UInt8] = []
        var size: (width: Int, height: Int)?
        var timestamps: [UInt64] = []
    }

    init(reader: ByteReader, packetSize: Int, syncOffset: Int) {
        self.reader = reader
        self.packetSize = packetSize
        self.syncOffset = syncOffset
    }

    /// The packet layout of a stream whose first bytes are `head`: `(packet size, sync offset)`.
    /// Three packets in sync identify it; a file shorter than two packets is recognised only by a
    /// program table at its start.
    static func layout(of head: [UInt8]) -> (packetSize: Int, syncOffset: Int)? {
        for (size, sync) in [(188, 0), (192, 4)] where head.count > sync && head[sync] == 0x47 {
            let following = [sync + size, sync + 2 * size].filter { $0 < head.count }
            if following.isEmpty {
                if startsWithTable(head, at: sync) { return (size, sync) }
            } else if following.allSatisfy({ head[$0] == 0x47 }) {
                return (size, sync)
            }
        }
        return nil
    }

    /// Whether a packet at `p` starts a PAT (PID 0) or SDT (PID 0x11) section, as muxers write first.
    private static func startsWithTable(_ b: [UInt8], at p: Int) -> Bool {
        guard p + 7 < b.count, b[p + 1] & 0xC0 == 0x40, b[p + 3] & 0x30 == 0x10 else { return false }
        let pid = Int(b[p + 1] & 0x1F) << 8 | Int(b[p + 2])
        let table = p + 5 + Int(b[p + 4])
        guard pid == 0 || pid == 0x11, table + 1 < b.count else { return false }
        return b[table] == (pid == 0 ? 0x00 : 0x42) && b[table + 1] & 0x80 != 0
    }

    private func corrupt(_ reason: String) -> MediaInspectionError {
        MediaInspectionError(.corrupt, "\(name) \(reason)")
    }

    func parse() throws(MediaInspectionError) -> MediaMetadata {
        let size = reader.size
        let stride = UInt64(packetSize)
        let whole = size / stride
        guard size % stride == 0 else {
            throw corrupt(
                "ends inside a packet: its last \(size % stride) bytes are not a whole \(packetSize)-byte packet (the file was cut short)"
            )
        }
        var scan = Scan()
        // The start: tables, the sequence header and the first timestamps.
        let headPackets = min(whole, UInt64(Self.headBudget / packetSize))
        var packet: UInt64 = 0
        while packet < headPackets, !isComplete(scan) {
            let count = Int(min(UInt64(Self.packetsPerRead), headPackets - packet))
            packet += UInt64(try read(packets: packet, count: count, into: &scan, head: true))
        }
        findSize(&scan)
        guard scan.hasProgramTable else {
            throw corrupt("has no readable program table (PAT) in its first \(packet) packets")
        }
        guard scan.hasProgramMap else {
            throw corrupt("has no readable program map (PMT) in its first \(packet) packets")
        }
        guard scan.video != nil else {
            throw MediaInspectionError(
                .notMedia, scan.hasAudio ? "it is audio-only \(name)" : "it is an \(name) stream without video")
        }
        let head = scan.timestamps
        // The end: the last timestamps (with a wrap of the 33-bit clock taken into account).
        let tailPackets = min(whole - packet, UInt64(Self.tailBudget / packetSize))
        scan.timestamps = []
        var tail = whole - tailPackets
        while tail < whole {
            let count = Int(min(UInt64(Self.packetsPerRead), whole - tail))
            _ = try read(packets: tail, count: count, into: &scan, head: false)
            tail += UInt64(count)
        }

        var metadata = MediaMetadata(format: format)
        if let size = scan.size {
            metadata.width = size.width
            metadata.height = size.height
        }
        if let first = head.first {
            // Timestamps relative to the first one, on the 33-bit clock that wraps every 26.5 hours;
            // pictures sent ahead of their display (B-frames) come out slightly negative.
            let relative = (head + scan.timestamps).map { timestamp -> Int64 in
                let delta = Int64((timestamp &- first) & Self.clockMask)
                return delta >= 1 << 32 ? delta - (1 << 33) : delta
            }
            let sorted = Set(relative).sorted()
            if let start = head.indices.map({ relative[$0] }).min(), let end = sorted.last, end > start {
                // Add one frame: timestamps mark where pictures start, and the last one lasts too.
                let frame = zip(sorted, sorted.dropFirst()).map { $1 - $0 }.min() ?? 0
                metadata.duration = Double(end - start + (frame < 90_000 ? frame : 0)) / 90_000
            }
        }
        return metadata
    }

    /// The 33-bit presentation clock (90 kHz).
    static let clockMask: UInt64 = (1 << 33) - 1

    /// Whether the start has told all it can: the video stream, its size (when its codec has a
    /// sequence header AlbumKit reads) and enough timestamps to see past reordered pictures.
    private func isComplete(_ scan: Scan) -> Bool {
        guard let video = scan.video, scan.timestamps.count >= 16 else { return false }
        return scan.size != nil || codec(video.streamType) == nil
    }

    /// Reads up to `count` packets from packet index `first`, checking sync and collecting what
    /// they carry; at the start, stops once ``isComplete(_:)``. Returns the packets used.
    private func read(
        packets first: UInt64, count: Int, into scan: inout Scan, head: Bool
    ) throws(MediaInspectionError) -> Int {
        let offset = first * UInt64(packetSize)
        let bytes = try reader.require(at: offset, count: count * packetSize, what: "\(name) packet")
        for index in 0..<count {
            if head, isComplete(scan) { return index }
            let p = index * packetSize + syncOffset
            guard bytes[p] == 0x47 else {
                throw corrupt("lost packet sync at offset \(offset + UInt64(p)) (the stream is damaged)")
            }
            guard bytes[p + 1] & 0x80 == 0 else { continue }  // the transport error indicator
            let pid = Int(bytes[p + 1] & 0x1F) << 8 | Int(bytes[p + 2])
            let unitStart = bytes[p + 1] & 0x40 != 0
            let control = bytes[p + 3] >> 4 & 3
            var payload = p + 4
            if control & 2 != 0 { payload += 1 + Int(bytes[p + 4]) }
            let end = p + 188
            guard control & 1 != 0, payload <= end else {
                if payload > end {
                    throw corrupt("packet at offset \(offset + UInt64(p)) has an adaptation field longer than itself")
                }
                continue
            }
            let data = bytes[payload..<end]
            if pid == 0 || scan.programMaps.contains(pid) {
                if head { table(pid: pid, data, unitStart: unitStart, into: &scan) }
            } else if pid == scan.video?.pid {
                elementary(data, unitStart: unitStart, into: &scan, head: head)
            }
        }
        return count
    }

    // MARK: Tables

    /// Gathers a PSI section across packets and parses it when complete.
    private func table(pid: Int, _ data: ArraySlice<UInt8>, unitStart: Bool, into scan: inout Scan) {
        var data = data
        if unitStart {
            guard let pointer = data.first, Int(pointer) < data.count else { return }
            data = data.dropFirst(1 + Int(pointer))
            scan.sections[pid] = []
        }
        guard var section = scan.sections[pid] else { return }
        section += data
        guard section.count >= 3 else {
            scan.sections[pid] = section
            return
        }
        let length = 3 + (Int(section[1] & 0x0F) << 8 | Int(section[2]))
        guard section.count >= length else {
            scan.sections[pid] = section.count < 4096 ? section : nil
            return
        }
        scan.sections[pid] = nil
        let complete = Array(section[0..<length])
        guard length >= 12, complete[1] & 0x80 != 0, Self.crc(complete) == 0 else { return }
        if pid == 0 {
            parseProgramTable(complete, into: &scan)
        } else {
            parseProgramMap(complete, into: &scan)
        }
    }

    private func parseProgramTable(_ section: [UInt8], into scan: inout Scan) {
        guard section[0] == 0x00 else { return }
        scan.hasProgramTable = true
        for entry in Swift.stride(from: 8, to: section.count - 4 - 3, by: 4) {
            let program = Int(section[entry]) << 8 | Int(section[entry + 1])
            let pid = Int(section[entry + 2] & 0x1F) << 8 | Int(section[entry + 3])
            if program != 0 { scan.programMaps.insert(pid) }
        }
    }

    private func parseProgramMap(_ section: [UInt8], into scan: inout Scan) {
        guard section[0] == 0x02 else { return }
        scan.hasProgramMap = true
        var i = 12 + (Int(section[10] & 0x0F) << 8 | Int(section[11]))
        while i + 5 <= section.count - 4 {
            let type = section[i]
            let pid = Int(section[i + 1] & 0x1F) << 8 | Int(section[i + 2])
            if scan.video == nil, Self.videoTypes.contains(type) { scan.video = (pid, type) }
            if Self.audioTypes.contains(type) { scan.hasAudio = true }
            i += 5 + (Int(section[i + 3] & 0x0F) << 8 | Int(section[i + 4]))
        }
    }

    /// Stream types of video: MPEG-1/2, MPEG-4 part 2, H.264, HEVC, VVC, AVS, Dirac, VC-1.
    static let videoTypes: Set<UInt8> = [0x01, 0x02, 0x10, 0x1B, 0x24, 0x33, 0x42, 0xD1, 0xEA]
    /// Stream types of audio: MPEG audio, AAC, LATM, AC-3/E-AC-3/DTS/TrueHD (ATSC and Blu-ray), LPCM.
    static let audioTypes: Set<UInt8> = [0x03, 0x04, 0x0F, 0x11, 0x1C, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87]

    private func codec(_ streamType: UInt8) -> VideoSequenceHeader.Codec? {
        switch streamType {
        case 0x01, 0x02: .mpegVideo
        case 0x1B: .h264
        case 0x24: .hevc
        default: nil
        }
    }

    // MARK: Video

    /// Takes the timestamp of each PES packet that starts here and, at the start of the file, the
    /// stream bytes until the sequence header is found.
    private func elementary(_ data: ArraySlice<UInt8>, unitStart: Bool, into scan: inout Scan, head: Bool) {
        var data = data
        if unitStart {
            let b = Array(data.prefix(14))
            guard b.count >= 9, b[0] == 0, b[1] == 0, b[2] == 1 else { return }
            if b[7] & 0x80 != 0, b.count >= 14 {
                let pts =
                    UInt64(b[9] >> 1 & 7) << 30 | UInt64(b[10]) << 22 | UInt64(b[11] >> 1) << 15
                    | UInt64(b[12]) << 7 | UInt64(b[13] >> 1)
                scan.timestamps.append(pts)
            }
            data = data.dropFirst(9 + Int(b[8]))
        }
        guard head, scan.size == nil, scan.elementary.count < 512 << 10 else { return }
        if unitStart { findSize(&scan) }  // the previous picture is complete
        scan.elementary += data
    }

    /// Looks for the sequence header in the stream bytes gathered so far.
    private func findSize(_ scan: inout Scan) {
        guard scan.size == nil, !scan.elementary.isEmpty, let video = scan.video, let codec = codec(video.streamType)
        else { return }
        scan.size = VideoSequenceHeader.size(in: scan.elementary, codec: codec)
    }

    /// CRC-32/MPEG-2 over a whole section including its CRC: 0 when intact.
    static func crc(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? crc << 1 ^ 0x04C1_1DB7 : crc << 1 }
        }
        return crc
    }
}
