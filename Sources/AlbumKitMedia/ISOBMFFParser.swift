/// Parses ISO base media files: HEIC/HEIF/AVIF images (meta: pitm, iinf, iloc, iprp ispe/irot/imir,
/// the Exif item) and MP4/MOV/M4V/3GP movies (moov: mvhd, tkhd, hdlr, udta ©xyz/loci).
///
/// Walks the top-level boxes by their headers only (a 2 GB `mdat` costs one 16-byte read), then
/// reads the few boxes it needs. Every box must fit in its parent and in the file; box counts are
/// capped at ``maxBoxes`` in total and nesting is followed only along fixed paths, so neither a
/// box claiming 4 GB nor deep nesting can make it allocate or loop.
final class ISOBMFFParser {
    static let maxBoxes = 200_000
    static let maxItems = 10_000
    static let maxTableBytes = 1 << 20

    let reader: ByteReader
    private var format: MediaFormat = .mp4
    private var boxCount = 0

    init(_ reader: ByteReader) { self.reader = reader }

    private var name: String {
        switch format {
        case .heic: "HEIC"
        case .heif: "HEIF"
        case .avif: "AVIF"
        case .mov: "QuickTime movie"
        case .m4v: "M4V"
        case .threeGP: "3GP"
        case .raw: "CR3"
        default: "MP4"
        }
    }

    private func corrupt(_ reason: String) -> MediaInspectionError {
        MediaInspectionError(.corrupt, reason)
    }

    func parse() throws(MediaInspectionError) -> MediaMetadata {
        let first = try ISOBox.read(reader, at: 0, limit: reader.size, format: "ISO media", parent: nil)
        if first.type == "ftyp" {
            format = try brandFormat(first)
        } else {
            format = .mov  // QuickTime files from before ftyp start with moov, mdat, wide, free or skip.
        }
        var meta: ISOBox?
        var moov: ISOBox?
        var offset: UInt64 = 0
        while offset < reader.size {
            let box = try ISOBox.read(reader, at: offset, limit: reader.size, format: name, parent: nil)
            try count()
            switch box.type {
            case "meta" where meta == nil: meta = box
            case "moov" where moov == nil: moov = box
            default: break
            }
            offset = box.end
        }
        var metadata = MediaMetadata(format: format)
        if format.kind == .photo {
            if let meta {
                try readImage(meta, into: &metadata)
            } else if let moov {
                try readMovie(moov, into: &metadata)  // an image sequence without a still image
            } else if format != .raw {
                throw corrupt("\(name) has no meta box")
            }
        } else {
            guard let moov else { throw corrupt("\(name) has no moov box") }
            try readMovie(moov, into: &metadata)
        }
        return metadata
    }

    private func count() throws(MediaInspectionError) {
        boxCount += 1
        if boxCount > Self.maxBoxes { throw corrupt("\(name) has more than \(Self.maxBoxes) boxes") }
    }

    /// The boxes inside `range`, which must tile it exactly.
    private func children(_ start: UInt64, _ end: UInt64, parent: String) throws(MediaInspectionError) -> [ISOBox] {
        var boxes: [ISOBox] = []
        var offset = start
        while offset + 8 <= end {
            let box = try ISOBox.read(reader, at: offset, limit: end, format: name, parent: parent)
            try count()
            boxes.append(box)
            offset = box.end
        }
        return boxes
    }

    private func payload(_ box: ISOBox, max: Int = ISOBMFFParser.maxTableBytes) throws(MediaInspectionError) -> [UInt8]
    {
        let length = Int(min(box.payloadLength, UInt64(max)))
        return try reader.require(at: box.payload, count: length, what: "\(name) box '\(box.type)'")
    }

    // MARK: Brands

    private func brandFormat(_ ftyp: ISOBox) throws(MediaInspectionError) -> MediaFormat {
        let data = try payload(ftyp, max: 4096)
        guard data.count >= 8 else { throw corrupt("ISO media ftyp box is too short") }
        let major = data.fourCC(0)
        var brands = [major]
        for i in stride(from: 8, to: data.count - 3, by: 4) { brands.append(data.fourCC(i)) }
        let heic: Set = ["heic", "heix", "heim", "heis", "hevc", "hevx"]
        let avif: Set = ["avif", "avis"]
        let audio: Set = ["M4A ", "M4B ", "M4P ", "F4A ", "F4B "]
        if avif.contains(major) { return .avif }
        if heic.contains(major) { return .heic }
        if major == "mif1" || major == "msf1" {
            if brands.contains(where: avif.contains) { return .avif }
            if brands.contains(where: heic.contains) { return .heic }
            return .heif
        }
        if major == "crx " { return .raw }
        if major == "qt  " { return .mov }
        if ["M4V ", "M4VH", "M4VP"].contains(major) { return .m4v }
        if major.hasPrefix("3gp") || major.hasPrefix("3g2") || major.hasPrefix("3ge") || major.hasPrefix("3gg") {
            return .threeGP
        }
        if audio.contains(major) {
            throw MediaInspectionError(.notMedia, "it is audio-only MPEG-4")
        }
        return .mp4
    }

    // MARK: Images

    private struct Location {
        var method: UInt16
        var extents: [(offset: UInt64, length: UInt64)]
    }

    private func readImage(_ meta: ISOBox, into metadata: inout MediaMetadata) throws(MediaInspectionError) {
        let head = try reader.require(
            at: meta.payload, count: Int(min(meta.payloadLength, 8)), what: "\(name) meta box")
        let isFullBox = head.fourCC(4) != "hdlr"
        let start = meta.payload + (isFullBox ? 4 : 0)
        guard start <= meta.end else { throw corrupt("\(name) meta box is too short") }
        var primary: UInt32?
        var itemTypes: [UInt32: String] = [:]
        var itemOrder: [UInt32] = []
        var properties: [ISOBox] = []
        var associations: [UInt32: [Int]] = [:]
        var locations: [UInt32: Location] = [:]
        var idat: ISOBox?
        for box in try children(start, meta.end, parent: "meta") {
            switch box.type {
            case "pitm":
                let data = try payload(box, max: 8)
                primary = data.first == 0 ? UInt32(data.u16(4)) : data.u32(4)
            case "iinf":
                let data = try payload(box, max: 8)
                let entriesStart = box.payload + (data.first == 0 ? 6 : 8)
                guard entriesStart <= box.end else { throw corrupt("\(name) iinf box is too short") }
                for infe in try children(entriesStart, box.end, parent: "iinf") where infe.type == "infe" {
                    guard itemOrder.count < Self.maxItems else { throw corrupt("\(name) has too many items") }
                    let entry = try payload(infe, max: 16)
                    guard let version = entry.first, version >= 2, entry.count >= (version == 2 ? 12 : 14) else {
                        continue
                    }
                    let id = version == 2 ? UInt32(entry.u16(4)) : entry.u32(4)
                    itemTypes[id] = entry.fourCC(version == 2 ? 8 : 10)
                    itemOrder.append(id)
                }
            case "iloc":
                locations = try parseLocations(try payload(box))
            case "idat":
                idat = box
            case "iprp":
                for child in try children(box.payload, box.end, parent: "iprp") {
                    if child.type == "ipco" {
                        properties = try children(child.payload, child.end, parent: "ipco")
                    } else if child.type == "ipma" {
                        associations = parseAssociations(try payload(child))
                    }
                }
            default:
                break
            }
        }
        guard let primaryID = primary ?? itemOrder.first else { throw corrupt("\(name) has no primary image item") }
        // Image data that iloc places in the file must be in the file.
        for (id, location) in locations where location.method == 0 {
            for extent in location.extents where !reader.contains(extent.offset, extent.length) {
                throw corrupt("\(name) item \(id) data at offset \(extent.offset) runs past the end of the file")
            }
        }
        var width: Int?
        var height: Int?
        var rotation: Int?
        var mirrored = false
        for index in associations[primaryID] ?? [] where index >= 1 && index <= properties.count {
            let property = properties[index - 1]
            switch property.type {
            case "ispe":
                let data = try payload(property, max: 12)
                if data.count >= 12 {
                    width = Int(data.u32(4))
                    height = Int(data.u32(8))
                }
            case "irot":
                if let angle = try payload(property, max: 1).first { rotation = Int(angle & 3) * 90 }
            case "imir":
                mirrored = true
            default:
                break
            }
        }
        var exif: EXIFInfo?
        if let exifID = itemOrder.first(where: { itemTypes[$0] == "Exif" }), let location = locations[exifID] {
            exif = try? readExifItem(location, idat: idat)
        }
        if let exif { exif.apply(to: &metadata) }
        if rotation != nil || mirrored {
            // irot/imir are the HEIF display transform; EXIF orientation is informational then.
            let quarter = rotation == 90 || rotation == 270
            metadata.width = quarter ? height : width
            metadata.height = quarter ? width : height
        } else {
            metadata.setSize(width: width, height: height, orientation: exif?.orientation)
        }
    }

    private func parseLocations(_ data: [UInt8]) throws(MediaInspectionError) -> [UInt32: Location] {
        guard data.count >= 8 else { throw corrupt("\(name) iloc box is too short") }
        let version = data[0]
        let offsetSize = Int(data[4] >> 4)
        let lengthSize = Int(data[4] & 0xF)
        let baseSize = Int(data[5] >> 4)
        let indexSize = version >= 1 ? Int(data[5] & 0xF) : 0
        let sizes = [offsetSize, lengthSize, baseSize, indexSize]
        guard version <= 2, sizes.allSatisfy({ [0, 4, 8].contains($0) }) else {
            throw corrupt("\(name) iloc box has an unsupported layout")
        }
        var i = 6
        let itemCount: Int
        if version < 2 {
            itemCount = Int(data.u16(i))
            i += 2
        } else {
            itemCount = Int(data.u32(i))
            i += 4
        }
        guard itemCount <= Self.maxItems else { throw corrupt("\(name) has too many items") }
        var result: [UInt32: Location] = [:]
        for _ in 0..<itemCount {
            let id: UInt32
            if version < 2 {
                id = UInt32(data.u16(i))
                i += 2
            } else {
                id = data.u32(i)
                i += 4
            }
            var method: UInt16 = 0
            if version >= 1 {
                method = data.u16(i) & 0xF
                i += 2
            }
            i += 2  // data_reference_index
            let base = data.uint(i, width: baseSize)
            i += baseSize
            let extentCount = Int(data.u16(i))
            i += 2
            guard i + extentCount * (indexSize + offsetSize + lengthSize) <= data.count else {
                throw corrupt("\(name) iloc box runs past its end")
            }
            var extents: [(UInt64, UInt64)] = []
            for _ in 0..<extentCount {
                i += indexSize
                let offset = data.uint(i, width: offsetSize)
                i += offsetSize
                let length = data.uint(i, width: lengthSize)
                i += lengthSize
                let (start, overflow) = base.addingReportingOverflow(offset)
                if overflow { throw corrupt("\(name) item \(id) has an invalid offset") }
                extents.append((start, length))
            }
            if result[id] == nil { result[id] = Location(method: method, extents: extents) }
        }
        return result
    }

    private func parseAssociations(_ data: [UInt8]) -> [UInt32: [Int]] {
        guard data.count >= 8 else { return [:] }
        let version = data[0]
        let wide = data[3] & 1 == 1
        let count = Int(data.u32(4))
        var i = 8
        var result: [UInt32: [Int]] = [:]
        for _ in 0..<min(count, Self.maxItems) {
            guard i + (version < 1 ? 3 : 5) <= data.count else { break }
            let id: UInt32
            if version < 1 {
                id = UInt32(data.u16(i))
                i += 2
            } else {
                id = data.u32(i)
                i += 4
            }
            let associationCount = Int(data[i])
            i += 1
            var indexes: [Int] = []
            for _ in 0..<associationCount {
                guard i + (wide ? 2 : 1) <= data.count else { break }
                if wide {
                    indexes.append(Int(data.u16(i) & 0x7FFF))
                    i += 2
                } else {
                    indexes.append(Int(data[i] & 0x7F))
                    i += 1
                }
            }
            if result[id] == nil { result[id] = indexes }
        }
        return result
    }

    private func readExifItem(_ location: Location, idat: ISOBox?) throws(MediaInspectionError) -> EXIFInfo? {
        var data: [UInt8] = []
        for extent in location.extents {
            var offset = extent.offset
            var length = extent.length
            if location.method == 1 {
                guard let idat else { return nil }
                offset = idat.payload &+ extent.offset
                if length == 0 { length = idat.end &- offset }
                guard offset >= idat.payload, offset <= idat.end, length <= idat.end - offset else { return nil }
            } else if location.method != 0 {
                return nil
            }
            guard length > 0, UInt64(data.count) + length <= UInt64(ByteReader.maxRead),
                let bytes = try reader.bytes(at: offset, count: Int(length))
            else { return nil }
            data += bytes
        }
        guard data.count > 4 else { return nil }
        let tiffStart = 4 + Int(data.u32(0))
        guard tiffStart < data.count else { return nil }
        var tiff = TIFFReader(ByteReader(BufferByteSource(bytes: Array(data[tiffStart...]))), strict: false)
        return try tiff.read()
    }

    // MARK: Movies

    private func readMovie(_ moov: ISOBox, into metadata: inout MediaMetadata) throws(MediaInspectionError) {
        var hasHeader = false
        var videoSize: (Int, Int)?
        for box in try children(moov.payload, moov.end, parent: "moov") {
            switch box.type {
            case "mvhd":
                let data = try payload(box, max: 32)
                let v1 = data.first == 1
                guard data.count >= (v1 ? 32 : 20) else { throw corrupt("\(name) movie header is too short") }
                let created = v1 ? data.u64(4) : UInt64(data.u32(4))
                let timescale = v1 ? data.u32(20) : data.u32(12)
                let duration = v1 ? data.u64(24) : UInt64(data.u32(16))
                metadata.captureDate = ISODate.string(secondsSince1904: created)
                let unknown = v1 ? UInt64.max : UInt64(UInt32.max)
                if timescale > 0, duration != unknown { metadata.duration = Double(duration) / Double(timescale) }
                hasHeader = true
            case "trak" where videoSize == nil:
                videoSize = try readTrack(box)
            case "udta":
                try readUserData(box, into: &metadata)
            default:
                break
            }
        }
        guard hasHeader else { throw corrupt("\(name) has no movie header (mvhd)") }
        if let videoSize {
            metadata.width = videoSize.0
            metadata.height = videoSize.1
        }
    }

    /// The displayed size of a video track, or `nil` for other tracks.
    private func readTrack(_ trak: ISOBox) throws(MediaInspectionError) -> (Int, Int)? {
        var size: (Int, Int)?
        var isVideo = false
        for box in try children(trak.payload, trak.end, parent: "trak") {
            if box.type == "tkhd" {
                let data = try payload(box, max: 96)
                let base = data.first == 1 ? 4 + 32 : 4 + 20
                guard data.count >= base + 60 else { throw corrupt("\(name) track header is too short") }
                let matrix = base + 16
                let a = Int32(bitPattern: data.u32(matrix))
                let b = Int32(bitPattern: data.u32(matrix + 4))
                let width = Int(data.u32(base + 52) >> 16)
                let height = Int(data.u32(base + 56) >> 16)
                let quarterTurn = a == 0 && b != 0
                size = quarterTurn ? (height, width) : (width, height)
            } else if box.type == "mdia" {
                for child in try children(box.payload, box.end, parent: "mdia") where child.type == "hdlr" {
                    let data = try payload(child, max: 12)
                    isVideo = data.fourCC(8) == "vide"
                }
            }
        }
        guard isVideo, let size, size.0 > 0, size.1 > 0 else { return nil }
        return size
    }

    /// QuickTime `©xyz` (ISO 6709 text) and 3GPP `loci` locations.
    private func readUserData(_ udta: ISOBox, into metadata: inout MediaMetadata) throws(MediaInspectionError) {
        for box in try children(udta.payload, udta.end, parent: "udta") {
            if box.type == "?xyz", metadata.latitude == nil {
                let data = try payload(box, max: 256)
                let length = Int(data.u16(0))
                guard data.count >= 4 + length else { continue }
                let text = String(decoding: data[4..<4 + length], as: UTF8.self)
                if let location = ISO6709.parse(text) {
                    metadata.latitude = location.latitude
                    metadata.longitude = location.longitude
                    metadata.altitude = location.altitude
                }
            } else if box.type == "loci", metadata.latitude == nil {
                let data = try payload(box, max: 1024)
                guard data.count > 6, let nameEnd = data[6...].firstIndex(of: 0), data.count >= nameEnd + 14 else {
                    continue
                }
                let fixed = { (i: Int) in Double(Int32(bitPattern: data.u32(i))) / 65536 }
                let longitude = fixed(nameEnd + 2)
                let latitude = fixed(nameEnd + 6)
                let altitude = fixed(nameEnd + 10)
                guard abs(latitude) <= 90, abs(longitude) <= 180 else { continue }
                metadata.latitude = latitude
                metadata.longitude = longitude
                metadata.altitude = altitude
            }
        }
    }
}
