/// Parses ISO base media files: HEIC/HEIF/AVIF images (meta: pitm, iinf, iloc, iprp ispe/irot/imir,
/// the Exif and XMP items; a `moov` image sequence makes them animated) and MP4/MOV/M4V/3GP movies
/// (moov: mvhd, tkhd, hdlr, tref, udta ©xyz/loci/©mak/©mod/©day, meta keys/ilst; the XMP `uuid`
/// box). A movie must have a video track (`vide` handler, not a chapter-image track): an
/// audio-only file, with or without cover art, is not media.
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
        var xmpBox: ISOBox?
        var offset: UInt64 = 0
        while offset < reader.size {
            let box = try ISOBox.read(reader, at: offset, limit: reader.size, format: name, parent: nil)
            try count()
            switch box.type {
            case "meta" where meta == nil: meta = box
            case "moov" where moov == nil: moov = box
            case "uuid" where xmpBox == nil:
                if try reader.bytes(at: box.payload - 16, count: 16) == XMPPacket.uuid { xmpBox = box }
            default: break
            }
            offset = box.end
        }
        var metadata = MediaMetadata(format: format)
        if format.kind == .photo {
            if let meta {
                try readImage(meta, into: &metadata)
                if let moov {
                    // An image sequence (AVIF/HEIF `avis`/`msf1`, a HEIC burst) besides the still image.
                    var sequence = MediaMetadata(format: format)
                    // The sequence is an extra beside the still image, which was read above.
                    if let movie = try? readMovie(moov, into: &sequence) {
                        metadata.isAnimated = movie.hasImageTrack
                        metadata.captureDate = metadata.captureDate ?? sequence.captureDate
                        metadata.make = metadata.make ?? sequence.make
                        metadata.model = metadata.model ?? sequence.model
                    } else {
                        reader.warn("\(name) image sequence (moov) is damaged; the still image is read")
                    }
                }
            } else if let moov {
                // An image sequence without a still image, or a Canon CR3 (its pictures are tracks).
                let movie = try readMovie(moov, into: &metadata)
                metadata.duration = nil
                if format == .raw {
                    if let canon = movie.canon {
                        canon.apply(to: &metadata)
                        if let width = canon.width, let height = canon.height, width > 0, height > 0 {
                            metadata.setSize(width: width, height: height, orientation: canon.orientation)
                        }
                    }
                } else {
                    metadata.isAnimated = movie.hasImageTrack
                }
            } else if format != .raw {
                throw corrupt("\(name) has no meta box")
            }
        } else {
            guard let moov else { throw corrupt("\(name) has no moov box") }
            let movie = try readMovie(moov, into: &metadata)
            guard movie.hasVideo else {
                throw MediaInspectionError(
                    .notMedia,
                    movie.hasSound
                        ? "it is audio-only \(name) (no video track)" : "it is \(name) without a video track")
            }
        }
        if let xmpBox {
            let data = try payload(xmpBox, max: XMPPacket.maxBytes)
            var info = EXIFInfo()
            (info.captureDate, info.make, info.model) = (metadata.captureDate, metadata.make, metadata.model)
            info.merge(XMPPacket(data))
            (metadata.captureDate, metadata.make, metadata.model) = (info.captureDate, info.make, info.model)
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
                    let entry = try payload(infe, max: 256)
                    guard let version = entry.first, version >= 2, entry.count >= (version == 2 ? 12 : 14) else {
                        continue
                    }
                    let id = version == 2 ? UInt32(entry.u16(4)) : entry.u32(4)
                    let typeOffset = version == 2 ? 8 : 10
                    var type = entry.fourCC(typeOffset)
                    if type == "mime" {
                        // item_name, then content_type, each ending with a NUL.
                        let nameEnd = entry[(typeOffset + 4)...].firstIndex(of: 0) ?? entry.count
                        if nameEnd + 1 < entry.count,
                            entry[(nameEnd + 1)...].starts(with: Array("application/rdf+xml".utf8))
                        {
                            type = "XMP "
                        }
                    }
                    itemTypes[id] = type
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
            // EXIF details are extras: a damaged block leaves them out (the image itself is checked).
            exif = try? readExifItem(location, idat: idat)
        }
        var xmp: XMPPacket?
        if let xmpID = itemOrder.first(where: { itemTypes[$0] == "XMP " }), let location = locations[xmpID],
            // XMP is an extra too: an unreadable packet leaves its details out.
            let data = try? itemData(location, idat: idat, limit: XMPPacket.maxBytes)
        {
            xmp = XMPPacket(data)
        }
        if exif != nil || xmp != nil {
            var info = exif ?? EXIFInfo()
            info.merge(xmp)
            info.apply(to: &metadata)
        }
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
        guard let data = try itemData(location, idat: idat, limit: ByteReader.maxRead), data.count > 4 else {
            return nil
        }
        let tiffStart = 4 + Int(data.u32(0))
        guard tiffStart < data.count else { return nil }
        var tiff = TIFFReader(ByteReader(BufferByteSource(bytes: Array(data[tiffStart...]))), strict: false)
        return try tiff.read()
    }

    /// An item's bytes (its extents, in the file or in `idat`), or `nil` past `limit` or the file's end.
    private func itemData(_ location: Location, idat: ISOBox?, limit: Int) throws(MediaInspectionError) -> [UInt8]? {
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
            guard length > 0, UInt64(data.count) + length <= UInt64(limit),
                let bytes = try reader.bytes(at: offset, count: Int(length))
            else { return nil }
            data += bytes
        }
        return data
    }

    // MARK: Movies

    /// What a movie's tracks are.
    struct MovieTracks {
        /// A `vide` track that is not another track's chapter images.
        var hasVideo = false
        /// A `soun` track.
        var hasSound = false
        /// A `vide` or `pict` track (an image sequence's frames).
        var hasImageTrack = false
        /// A CR3's Canon metadata: CMT1 (IFD0: size, camera, orientation) and CMT2 (EXIF tags).
        var canon: EXIFInfo?
    }

    /// The `uuid` of the Canon box in a CR3's `moov` (85C0B687-820F-11E0-8111-F4CE462B6A48).
    static let canonUUID: [UInt8] = [
        0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48,
    ]

    /// CMT1 and CMT2 of a CR3's Canon box, each a TIFF: CMT1's IFD0 holds the camera, size and
    /// orientation, CMT2's the EXIF tags (read as IFD0 dates).
    private func readCanon(_ box: ISOBox) throws(MediaInspectionError) -> EXIFInfo? {
        guard try reader.bytes(at: box.payload - 16, count: 16) == Self.canonUUID else { return nil }
        var info: EXIFInfo?
        for child in try children(box.payload, box.end, parent: "uuid")
        where child.type == "CMT1" || child.type == "CMT2" {
            var tiff = TIFFReader(reader, base: child.payload, strict: false)
            // EXIF details are extras: a damaged block leaves them out (the image itself is checked).
            guard let read = try? tiff.read() else { continue }
            var merged = info ?? EXIFInfo()
            if child.type == "CMT1" {
                let date = merged.captureDate
                merged = read
                merged.captureDate = read.captureDate ?? date
            } else {
                merged.captureDate = read.captureDate ?? merged.captureDate
            }
            info = merged
        }
        return info
    }

    /// One track: its ID, handler, displayed size and the chapter tracks it refers to.
    private struct Track {
        var id: UInt32?
        var handler: String?
        var size: (Int, Int)?
        var chapters: [UInt32] = []
    }

    @discardableResult
    private func readMovie(
        _ moov: ISOBox, into metadata: inout MediaMetadata
    ) throws(MediaInspectionError) -> MovieTracks {
        var hasHeader = false
        var tracks: [Track] = []
        var userData = MovieUserData()
        var canon: EXIFInfo?
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
            case "trak" where tracks.count < 1000:
                tracks.append(try readTrack(box))
            case "udta":
                try readUserData(box, into: &metadata, userData: &userData)
            case "meta":
                try readKeys(box, into: &userData)
            case "uuid" where format == .raw && canon == nil:
                canon = try readCanon(box)
            default:
                break
            }
        }
        guard hasHeader else { throw corrupt("\(name) has no movie header (mvhd)") }
        // Apple's keys (local time with its offset) and ©day come before mvhd's UTC time, as
        // exiftool's preferred tags do; the same for make and model.
        metadata.captureDate =
            userData.creationDate ?? userData.day ?? metadata.captureDate ?? userData.xmp?.captureDate
        metadata.make = userData.make ?? metadata.make ?? userData.xmp?.make
        metadata.model = userData.model ?? metadata.model ?? userData.xmp?.model
        if metadata.latitude == nil, let location = userData.location {
            (metadata.latitude, metadata.longitude, metadata.altitude) = location
        }
        let chapters = Set(tracks.flatMap(\.chapters))
        let video = tracks.filter { $0.handler == "vide" && !($0.id.map(chapters.contains) ?? false) }
        if let size = video.lazy.compactMap(\.size).first {
            metadata.width = size.0
            metadata.height = size.1
        } else if let size = tracks.lazy.filter({ $0.handler == "pict" }).compactMap(\.size).first {
            metadata.width = size.0
            metadata.height = size.1
        }
        return MovieTracks(
            hasVideo: !video.isEmpty, hasSound: tracks.contains { $0.handler == "soun" },
            hasImageTrack: tracks.contains { $0.handler == "vide" || $0.handler == "pict" }, canon: canon)
    }

    /// A track's ID, handler, displayed size and chapter references.
    private func readTrack(_ trak: ISOBox) throws(MediaInspectionError) -> Track {
        var track = Track()
        var size: (Int, Int)?
        for box in try children(trak.payload, trak.end, parent: "trak") {
            if box.type == "tkhd" {
                let data = try payload(box, max: 96)
                let base = data.first == 1 ? 4 + 32 : 4 + 20
                guard data.count >= base + 60 else { throw corrupt("\(name) track header is too short") }
                track.id = data.first == 1 ? data.u32(20) : data.u32(12)
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
                    track.handler = data.fourCC(8)
                }
            } else if box.type == "tref" {
                for reference in try children(box.payload, box.end, parent: "tref") where reference.type == "chap" {
                    let data = try payload(reference, max: 4 * 64)
                    track.chapters += stride(from: 0, to: data.count - 3, by: 4).map { data.u32($0) }
                }
            }
        }
        if let size, size.0 > 0, size.1 > 0 { track.size = size }
        return track
    }

    /// Camera, date and place a movie's user data and keys hold.
    struct MovieUserData {
        var make: String?
        var model: String?
        /// `©day`, as written (ISO 8601).
        var day: String?
        /// `com.apple.quicktime.creationdate`.
        var creationDate: String?
        var location: (Double, Double, Double?)?
        /// QuickTime's `udta/XMP_` packet.
        var xmp: XMPPacket?
    }

    /// Apple's `meta` box with `keys` and `ilst` (com.apple.quicktime.make, .model, .creationdate,
    /// .location.ISO6709).
    private func readKeys(_ meta: ISOBox, into userData: inout MovieUserData) throws(MediaInspectionError) {
        // QuickTime's meta is a plain box; MP4's a full box (4 bytes of version and flags first).
        let head = try reader.require(
            at: meta.payload, count: Int(min(meta.payloadLength, 8)), what: "\(name) meta box")
        let start = meta.payload + (head.fourCC(4) == "hdlr" ? 0 : 4)
        guard start <= meta.end else { return }
        var keys: [String] = []
        var values: [(index: Int, data: [UInt8])] = []
        for box in try children(start, meta.end, parent: "meta") {
            if box.type == "keys" {
                let data = try payload(box, max: 64 << 10)
                var i = 8
                for _ in 0..<min(Int(data.u32(4)), 1000) {
                    let size = Int(data.u32(i))
                    guard size >= 8, i + size <= data.count else { break }
                    keys.append(String(decoding: data[i + 8..<i + size], as: UTF8.self))
                    i += size
                }
            } else if box.type == "ilst" {
                for item in try children(box.payload, box.end, parent: "ilst") where values.count < 1000 {
                    let index = Int(try reader.require(at: item.start + 4, count: 4, what: "\(name) ilst item").u32(0))
                    for value in try children(item.payload, item.end, parent: "ilst item") where value.type == "data" {
                        let data = try payload(value, max: 1024)
                        // data: type (4 bytes: 1 = UTF-8), locale (4), the value.
                        if data.count > 8, data.u32(0) == 1 { values.append((index, Array(data[8...]))) }
                    }
                }
            }
        }
        for (index, data) in values where index >= 1 && index <= keys.count {
            let text = String(decoding: data, as: UTF8.self).trimmingSpaces
            guard !text.isEmpty else { continue }
            switch keys[index - 1] {
            case "com.apple.quicktime.make": userData.make = text
            case "com.apple.quicktime.model": userData.model = text
            case "com.apple.quicktime.creationdate": userData.creationDate = Self.movieDate(text)
            case "com.apple.quicktime.location.ISO6709":
                if let location = ISO6709.parse(text) {
                    userData.location = (location.latitude, location.longitude, location.altitude)
                }
            default: break
            }
        }
    }

    /// A QuickTime date (`2024-05-01T10:20:30+0200`, `2024-05-01T10:20:30Z`, `2024-05-01T10:20:30.5+02:00`)
    /// as AlbumKit writes dates (`2024-05-01T10:20:30+02:00`); `nil` for anything else.
    static func movieDate(_ text: String) -> String? {
        var c = Array(text.utf8)
        // "+0200" → "+02:00"
        if c.count >= 5, c[c.count - 5] == UInt8(ascii: "+") || c[c.count - 5] == UInt8(ascii: "-"),
            c[(c.count - 4)...].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        {
            c.insert(UInt8(ascii: ":"), at: c.count - 2)
        }
        return XMPPacket.isoDate(String(decoding: c, as: UTF8.self))
    }

    /// QuickTime `©xyz` (ISO 6709 text) and 3GPP `loci` locations; `©mak`, `©mod` and `©day` text.
    private func readUserData(
        _ udta: ISOBox, into metadata: inout MediaMetadata, userData: inout MovieUserData
    ) throws(MediaInspectionError) {
        for box in try children(udta.payload, udta.end, parent: "udta") {
            if box.type == "meta" {
                try readKeys(box, into: &userData)  // ffmpeg writes Apple's keys here, iPhones in moov
                continue
            }
            if box.type == "XMP_", userData.xmp == nil {
                userData.xmp = XMPPacket(try payload(box, max: XMPPacket.maxBytes))
                continue
            }
            if box.type == "TAGS", userData.make == nil {
                // Pentax cameras' block of settings: the make first, a 24-byte C string (exiftool's
                // Pentax MOV tags).
                let data = try payload(box, max: 24)
                if data.starts(with: Array("PENTAX ".utf8), at: 0), let make = data.cString(0..<data.count) {
                    userData.make = make.trimmingSpaces.nilIfEmpty
                }
                continue
            }
            if ["?mak", "?mod", "?day"].contains(box.type),
                try reader.byte(at: box.start + 4) == 0xA9
            {
                // A QuickTime text: length (2 bytes), language (2 bytes), the text.
                let data = try payload(box, max: 256)
                let length = Int(data.u16(0))
                guard length > 0, data.count >= 4 + length else { continue }
                let text = String(decoding: data[4..<4 + length], as: UTF8.self).trimmingSpaces
                guard !text.isEmpty else { continue }
                switch box.type {
                case "?mak": userData.make = userData.make ?? text
                case "?mod": userData.model = userData.model ?? text
                default: userData.day = userData.day ?? Self.movieDate(text)
                }
                continue
            }
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
