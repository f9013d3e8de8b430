/// Checks the EBML structure of a Matroska or WebM movie and reads its size, duration and date.
///
/// Walks the Segment's top-level elements by their headers only (a 1 GB Cluster costs one
/// 12-byte read), reads Info (duration, date) and Tracks (the first video track's pixel size).
/// Every element must fit in the Segment, and the Segment in the file, so a cut file is corrupt.
/// A live recording whose Segment or Clusters have an unknown size is checked up to its first
/// Cluster of unknown size: nothing after it says where it ends.
struct MatroskaParser {
    static let maxElements = 200_000
    static let maxMasterBytes = ByteReader.maxRead

    enum ID {
        static let ebml: UInt32 = 0x1A45_DFA3
        static let docType: UInt32 = 0x4282
        static let segment: UInt32 = 0x1853_8067
        static let info: UInt32 = 0x1549_A966
        static let tracks: UInt32 = 0x1654_AE6B
        static let cluster: UInt32 = 0x1F43_B675
        static let timestampScale: UInt32 = 0x2A_D7B1
        static let duration: UInt32 = 0x4489
        static let dateUTC: UInt32 = 0x4461
        static let trackEntry: UInt32 = 0xAE
        static let trackType: UInt32 = 0x83
        static let flagEnabled: UInt32 = 0xB9
        static let video: UInt32 = 0xE0
        static let pixelWidth: UInt32 = 0xB0
        static let pixelHeight: UInt32 = 0xBA
    }

    /// Seconds from 1970-01-01 to Matroska's epoch, 2001-01-01T00:00:00Z.
    static let epoch2001: Int64 = 978_307_200

    let reader: ByteReader
    private var elements = 0

    init(reader: ByteReader) { self.reader = reader }

    private func corrupt(_ name: String, _ reason: String) -> MediaInspectionError {
        MediaInspectionError(.corrupt, "\(name) \(reason)")
    }

    mutating func parse() throws(MediaInspectionError) -> MediaMetadata {
        let header = try EBMLElement.read(reader, at: 0, limit: reader.size, format: "Matroska")
        guard header.id == ID.ebml, let headerEnd = header.end else {
            throw corrupt("Matroska", "EBML header has an unknown size")
        }
        let docType =
            try master(header, name: "Matroska EBML header")
            .first { $0.id == ID.docType }
            .map { String(decoding: $0.bytes, as: UTF8.self).trimmingSpaces } ?? "matroska"
        let format: MediaFormat
        switch docType {
        case "webm": format = .webm
        case "matroska": format = .mkv
        default: throw MediaInspectionError(.notMedia, "it is an EBML document of type \"\(docType)\", not a movie")
        }
        let name = format == .webm ? "WebM" : "Matroska"

        // The Segment follows the header, perhaps after Void elements.
        var offset = headerEnd
        var segment: EBMLElement?
        while offset < reader.size, segment == nil {
            let element = try EBMLElement.read(reader, at: offset, limit: reader.size, format: name)
            try count(name)
            if element.id == ID.segment {
                segment = element
            } else if let end = element.end {
                offset = end
            } else {
                throw corrupt(name, "element \(EBMLElement.hex(element.id)) at offset \(offset) has an unknown size")
            }
        }
        guard let segment else { throw corrupt(name, "has no Segment") }

        var info: [Child]?
        var tracks: [Child]?
        let segmentEnd = segment.end ?? reader.size
        offset = segment.data
        walk: while offset < segmentEnd {
            let element = try EBMLElement.read(reader, at: offset, limit: segmentEnd, format: name)
            try count(name)
            switch element.id {
            case ID.info where info == nil:
                info = try master(element, name: "\(name) Info")
            case ID.tracks where tracks == nil:
                tracks = try master(element, name: "\(name) Tracks")
            default:
                break
            }
            guard let end = element.end else {
                // Only a live recording's Cluster may have an unknown size; nothing after it can be located.
                guard element.id == ID.cluster else {
                    throw corrupt(
                        name, "element \(EBMLElement.hex(element.id)) at offset \(offset) has an unknown size")
                }
                break walk
            }
            offset = end
        }
        guard let info else { throw corrupt(name, "has no segment information (Info)") }
        guard let tracks else { throw corrupt(name, "has no track list (Tracks)") }

        var metadata = MediaMetadata(format: format)
        let nanosecondsPerTick = info.first { $0.id == ID.timestampScale }?.unsigned.map { Double($0) } ?? 1_000_000
        if let ticks = info.first(where: { $0.id == ID.duration })?.float, ticks.isFinite, ticks > 0,
            nanosecondsPerTick > 0
        {
            metadata.duration = ticks * nanosecondsPerTick / 1e9
        }
        if let date = info.first(where: { $0.id == ID.dateUTC }), date.bytes.count == 8,
            let nanoseconds = date.bytes.ebmlSigned(0..<8)
        {
            let (seconds, remainder) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
            metadata.captureDate = ISODate.string(unixSeconds: seconds - (remainder < 0 ? 1 : 0) + Self.epoch2001)
        }

        var hasVideo = false
        for entry in tracks where entry.id == ID.trackEntry {
            let fields = entry.children
            guard fields.first(where: { $0.id == ID.trackType })?.unsigned == 1,
                fields.first(where: { $0.id == ID.flagEnabled })?.unsigned ?? 1 == 1
            else { continue }
            hasVideo = true
            guard let settings = fields.first(where: { $0.id == ID.video })?.children,
                let width = settings.first(where: { $0.id == ID.pixelWidth })?.unsigned,
                let height = settings.first(where: { $0.id == ID.pixelHeight })?.unsigned,
                (1...1 << 20).contains(width), (1...1 << 20).contains(height)
            else { continue }
            metadata.width = Int(width)
            metadata.height = Int(height)
            break
        }
        guard hasVideo else { throw MediaInspectionError(.notMedia, "it is audio-only \(name)") }
        return metadata
    }

    /// A child element held in memory.
    struct Child {
        var id: UInt32
        var bytes: [UInt8]

        /// Its value as an EBML unsigned integer.
        var unsigned: UInt64? { bytes.ebmlUnsigned(0..<bytes.count) }
        /// Its value as an EBML float.
        var float: Double? { bytes.ebmlFloat(0..<bytes.count) }
        /// Its children, as far as they can be read (a nested element's damage is tolerated).
        var children: [Child] {
            EBMLElement.children(of: bytes).list.map { Child(id: $0.id, bytes: Array(bytes[$0.data])) }
        }
    }

    /// The children of a master element of known size, read into memory (at most 4 MB); they must
    /// fill it exactly.
    private func master(_ element: EBMLElement, name: String) throws(MediaInspectionError) -> [Child] {
        guard let length = element.length else { throw corrupt(name, "has an unknown size") }
        guard length <= UInt64(Self.maxMasterBytes) else { throw corrupt(name, "is larger than 4 MB") }
        let bytes = try reader.require(at: element.data, count: Int(length), what: name)
        let children = EBMLElement.children(of: bytes)
        guard children.isComplete else {
            throw corrupt(name, "at offset \(element.start) holds an element that is damaged or does not fit in it")
        }
        return children.list.map { Child(id: $0.id, bytes: Array(bytes[$0.data])) }
    }

    private mutating func count(_ name: String) throws(MediaInspectionError) {
        elements += 1
        if elements > Self.maxElements { throw corrupt(name, "has more than \(Self.maxElements) top-level elements") }
    }
}
