/// Checks the RIFF structure of an AVI movie and reads its size and duration from the headers.
///
/// An AVI is a `RIFF 'AVI '` chunk, followed in files over 1 GB (OpenDML) by `RIFF 'AVIX'` chunks.
/// Each must fit in the file; inside the first, the chunks must tile it and the header list
/// (`hdrl`: `avih`, one `strl` per stream with `strh` and `strf`) and the frames (`movi`) must be
/// present. Frames are never read: the `movi` list costs one 12-byte read whatever its size. The
/// capture date is the `IDIT` chunk's, as cameras write it, else the `INFO` list's `ICRD`.
struct AVIParser {
    static let maxChunks = 100_000

    let reader: ByteReader
    private var chunks = 0
    /// The `IDIT` chunk's date (cameras write it in the header list).
    private var captureDate: String?
    /// The `INFO` list's `ICRD` date (editors and some cameras), used when there is no `IDIT`.
    private var infoDate: String?

    init(reader: ByteReader) { self.reader = reader }

    private func corrupt(_ reason: String) -> MediaInspectionError {
        MediaInspectionError(.corrupt, "AVI \(reason)")
    }

    /// A chunk: its four-character code, the list type for `RIFF`/`LIST`, and its payload.
    private struct Chunk {
        var id: String
        var listType: String?
        var start: UInt64
        var payload: UInt64
        var end: UInt64
        /// Where the next chunk starts (chunks are padded to an even length).
        var next: UInt64
    }

    mutating func parse() throws(MediaInspectionError) -> MediaMetadata {
        let riff = try chunk(at: 0, limit: reader.size, parent: nil)
        guard riff.id == "RIFF", riff.listType == "AVI " else {
            throw corrupt("does not start with a RIFF 'AVI ' chunk")
        }

        var header: [UInt8]?
        var streams: [(header: [UInt8], format: [UInt8])] = []
        var hasFrames = false
        var offset = riff.payload + 4
        while offset < riff.end {
            let item = try chunk(at: offset, limit: riff.end, parent: "RIFF 'AVI '")
            if item.id == "LIST", item.listType == "hdrl" {
                (header, streams) = try readHeaderList(item)
            } else if item.id == "LIST", item.listType == "movi" {
                hasFrames = true
            } else if item.id == "IDIT", captureDate == nil {
                captureDate = Self.date(try payload(item, max: 64))
            } else if item.id == "LIST", item.listType == "INFO", infoDate == nil {
                infoDate = try readInfoDate(item)
            }
            offset = item.next
        }
        // OpenDML extensions: every further RIFF chunk must be whole, too.
        offset = riff.next
        while offset + 12 <= reader.size, let head = try reader.bytes(at: offset, count: 4), head.fourCC(0) == "RIFF" {
            let extra = try chunk(at: offset, limit: reader.size, parent: nil)
            guard extra.listType == "AVIX" else {
                throw corrupt("holds a RIFF chunk of an unknown type at offset \(offset)")
            }
            offset = extra.next
        }
        guard let header else { throw corrupt("has no header list (hdrl with avih)") }
        guard hasFrames else { throw corrupt("has no frame list (movi)") }

        var metadata = MediaMetadata(format: .avi)
        metadata.captureDate = captureDate ?? infoDate
        guard let video = streams.first(where: { $0.header.fourCC(0) == "vids" }) else {
            if streams.contains(where: { $0.header.fourCC(0) == "auds" }) {
                throw MediaInspectionError(.notMedia, "it is audio-only AVI")
            }
            throw corrupt("has no video stream header")
        }
        // strh: dwScale at 20, dwRate at 24, dwLength at 32 (in units of scale/rate seconds).
        let scale = video.header.u32(20, bigEndian: false)
        let rate = video.header.u32(24, bigEndian: false)
        let length = video.header.u32(32, bigEndian: false)
        if video.header.count >= 36, scale > 0, rate > 0, length > 0 {
            metadata.duration = Double(length) * Double(scale) / Double(rate)
        } else {
            // avih: dwMicroSecPerFrame at 0, dwTotalFrames at 16.
            let frames = header.u32(16, bigEndian: false)
            let microseconds = header.u32(0, bigEndian: false)
            if frames > 0, microseconds > 0 { metadata.duration = Double(frames) * Double(microseconds) / 1e6 }
        }
        // strf for video is a BITMAPINFOHEADER: biWidth at 4, biHeight at 8 (negative when top-down).
        var width = Int(Int32(bitPattern: video.format.u32(4, bigEndian: false)))
        var height = abs(Int(Int32(bitPattern: video.format.u32(8, bigEndian: false))))
        if video.format.count < 12 || width <= 0 || height <= 0 {
            // avih: dwWidth at 32, dwHeight at 36.
            width = Int(header.u32(32, bigEndian: false))
            height = Int(header.u32(36, bigEndian: false))
        }
        if width > 0, height > 0, width <= 1 << 20, height <= 1 << 20 {
            metadata.width = width
            metadata.height = height
        }
        return metadata
    }

    /// The main header and each stream's header and format, from `LIST 'hdrl'`.
    private mutating func readHeaderList(
        _ list: Chunk
    ) throws(MediaInspectionError) -> (header: [UInt8]?, streams: [(header: [UInt8], format: [UInt8])]) {
        var header: [UInt8]?
        var streams: [(header: [UInt8], format: [UInt8])] = []
        var offset = list.payload + 4
        while offset < list.end {
            let item = try chunk(at: offset, limit: list.end, parent: "LIST 'hdrl'")
            if item.id == "IDIT", captureDate == nil {
                captureDate = Self.date(try payload(item, max: 64))
            } else if item.id == "avih" {
                let data = try payload(item, max: 64)
                guard data.count >= 40 else { throw corrupt("main header (avih) is too short") }
                header = data
            } else if item.id == "LIST", item.listType == "strl" {
                var streamHeader: [UInt8] = []
                var streamFormat: [UInt8] = []
                var inner = item.payload + 4
                while inner < item.end {
                    let field = try chunk(at: inner, limit: item.end, parent: "LIST 'strl'")
                    if field.id == "strh" { streamHeader = try payload(field, max: 64) }
                    if field.id == "strf" { streamFormat = try payload(field, max: 64) }
                    inner = field.next
                }
                guard streamHeader.count >= 8 else { throw corrupt("stream list has no stream header (strh)") }
                streams.append((streamHeader, streamFormat))
            }
            offset = item.next
        }
        return (header, streams)
    }

    /// The `ICRD` (creation date) of a `LIST 'INFO'`, when it holds a time of day: `2024-05-01
    /// 10:20:30`, EXIF's form or C's `ctime` form (a day alone, `2024-05-01`, is not used).
    private mutating func readInfoDate(_ list: Chunk) throws(MediaInspectionError) -> String? {
        var offset = list.payload + 4
        while offset < list.end {
            let item = try chunk(at: offset, limit: list.end, parent: "LIST 'INFO'")
            if item.id == "ICRD" { return Self.date(try payload(item, max: 64)) }
            offset = item.next
        }
        return nil
    }

    /// An `IDIT` date: C's `ctime` text (`Mon Mar  3 10:20:30 2008`) or EXIF's (`2008:03:03 10:20:30`),
    /// as ISO 8601 without an offset; `nil` for anything else.
    static func date(_ bytes: [UInt8]) -> String? {
        guard let text = bytes.cString(0..<bytes.count) else { return nil }
        if let exif = TIFFReader.isoDate(text) { return exif }
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        guard parts.count == 5, let month = months.firstIndex(of: parts[1].prefix(3).lowercased()),
            let day = Int(parts[2]), (1...31).contains(day), let year = Int(parts[4]), (1900...9999).contains(year)
        else { return nil }
        let time = parts[3].split(separator: ":")
        guard time.count == 3, let h = Int(time[0]), let m = Int(time[1]), let sec = Int(time[2]),
            (0...23).contains(h), (0...59).contains(m), (0...60).contains(sec)
        else { return nil }
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month + 1))-\(two(day))T\(two(h)):\(two(m)):\(two(sec))"
    }

    /// The first `max` bytes of a chunk's payload.
    private func payload(_ chunk: Chunk, max: Int) throws(MediaInspectionError) -> [UInt8] {
        let count = Int(min(chunk.end - chunk.payload, UInt64(max)))
        return try reader.require(at: chunk.payload, count: count, what: "AVI chunk '\(chunk.id.trimmingSpaces)'")
    }

    /// The chunk at `offset`, which must end by `limit` (padding may reach one byte past it at the file's end).
    private mutating func chunk(
        at offset: UInt64, limit: UInt64, parent: String?
    ) throws(MediaInspectionError) -> Chunk {
        chunks += 1
        guard chunks <= Self.maxChunks else { throw corrupt("has more than \(Self.maxChunks) chunks") }
        let within = parent.map { "its parent \($0)" } ?? "the end of the file"
        guard offset + 8 <= limit, let head = try reader.bytes(at: offset, count: 8) else {
            throw corrupt("chunk header at offset \(offset) runs past \(within)")
        }
        let id = head.fourCC(0)
        let size = UInt64(head.u32(4, bigEndian: false))
        let payload = offset + 8
        let end = payload + size
        guard end <= limit else {
            let error = corrupt("chunk '\(id.trimmingSpaces)' at offset \(offset) (\(size) bytes) runs past \(within)")
            // The RIFF chunk's size is the file's.
            if parent == nil, limit == reader.size {
                throw .cutShort(error.reason, present: limit, expected: end)
            }
            throw error
        }
        var listType: String?
        if id == "RIFF" || id == "LIST" {
            guard size >= 4, let type = try reader.bytes(at: payload, count: 4) else {
                throw corrupt("list at offset \(offset) is too short")
            }
            listType = type.fourCC(0)
        }
        return Chunk(
            id: id, listType: listType, start: offset, payload: payload, end: end, next: min(end + (size & 1), limit))
    }
}
