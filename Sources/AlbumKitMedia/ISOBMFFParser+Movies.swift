extension ISOBMFFParser {
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
    func readMovie(
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
