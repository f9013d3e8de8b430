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
    var format: MediaFormat = .mp4
    var boxCount = 0

    init(_ reader: ByteReader) { self.reader = reader }

    var name: String {
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

    func corrupt(_ reason: String) -> MediaInspectionError {
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

    func count() throws(MediaInspectionError) {
        boxCount += 1
        if boxCount > Self.maxBoxes { throw corrupt("\(name) has more than \(Self.maxBoxes) boxes") }
    }

    /// The boxes inside `range`, which must tile it exactly.
    func children(_ start: UInt64, _ end: UInt64, parent: String) throws(MediaInspectionError) -> [ISOBox] {
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

    func payload(_ box: ISOBox, max: Int = ISOBMFFParser.maxTableBytes) throws(MediaInspectionError) -> [UInt8] {
        let length = Int(min(box.payloadLength, UInt64(max)))
        return try reader.require(at: box.payload, count: length, what: "\(name) box '\(box.type)'")
    }

    // MARK: Brands

    func brandFormat(_ ftyp: ISOBox) throws(MediaInspectionError) -> MediaFormat {
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
}
