@testable import AlbumKitMedia

/// Byte-level writers for what no Debian tool makes: TIFF directories with chosen tags, Fujifilm RAF
/// files to the format's published layout, AVIF image sequences and AVI `IDIT` chunks.
enum Writers {
    /// One big-endian TIFF directory entry with its value already encoded.
    struct Entry {
        var tag: Int
        var type: Int
        var count: Int
        var value: [UInt8]

        static func short(_ tag: Int, _ value: Int) -> Entry { Entry(tag: tag, type: 3, count: 1, value: .be16(value)) }
        static func long(_ tag: Int, _ value: Int) -> Entry { Entry(tag: tag, type: 4, count: 1, value: .be32(value)) }
        static func ascii(_ tag: Int, _ text: String) -> Entry {
            let bytes = Array(text.utf8) + [0]
            return Entry(tag: tag, type: 2, count: bytes.count, value: bytes)
        }
        static func bytes(_ tag: Int, _ value: [UInt8]) -> Entry {
            Entry(tag: tag, type: 7, count: value.count, value: value)
        }
    }

    /// The length of a directory with `entries`, its values included.
    static func directoryLength(_ entries: [Entry]) -> Int {
        2 + 12 * entries.count + 4 + entries.reduce(0) { $0 + ($1.value.count > 4 ? ($1.value.count + 1) & ~1 : 0) }
    }

    /// A directory placed at `offset` (from the TIFF header), its larger values right after it.
    static func directory(_ entries: [Entry], at offset: Int, next: Int = 0) -> [UInt8] {
        let sorted = entries.sorted { $0.tag < $1.tag }
        var values: [UInt8] = []
        var bytes: [UInt8] = .be16(sorted.count)
        let valuesStart = offset + 2 + 12 * sorted.count + 4
        for entry in sorted {
            bytes += .be16(entry.tag) + .be16(entry.type) + .be32(entry.count)
            if entry.value.count <= 4 {
                bytes += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
            } else {
                bytes += .be32(valuesStart + values.count)
                values += entry.value
                if values.count % 2 == 1 { values.append(0) }
            }
        }
        return bytes + .be32(next) + values
    }

    /// A big-endian TIFF: the header, IFD0 with `entries`, then an optional EXIF directory.
    static func tiff(_ entries: [Entry], exif: [Entry] = []) -> [UInt8] {
        var ifd0 = entries
        if !exif.isEmpty { ifd0.append(.long(0x8769, 0)) }
        let exifOffset = 8 + directoryLength(ifd0)
        if !exif.isEmpty { ifd0[ifd0.count - 1] = .long(0x8769, exifOffset) }
        var bytes: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A] + .be32(8) + directory(ifd0, at: 8)
        if !exif.isEmpty { bytes += directory(exif, at: exifOffset) }
        return bytes
    }

    /// `jpeg` with an APP1 EXIF segment (IFD0 `ifd0`, EXIF directory `exif`) right after its SOI.
    static func withEXIF(_ jpeg: [UInt8], ifd0: [Entry], exif: [Entry]) -> [UInt8] {
        let payload = Array("Exif\0\0".utf8) + tiff(ifd0, exif: exif)
        return [0xFF, 0xD8, 0xFF, 0xE1] + .be16(payload.count + 2) + payload + Array(jpeg[2...])
    }

    /// What a generated RAF holds.
    struct RAF {
        var model = "X-T3"
        var width = 96
        var height = 64
        var date = "2024:05:01 10:20:30"
        var orientation = 1
        var preview: [UInt8]
        /// Leaves the raw data's last bytes out of the file (a cut file) when set.
        var cutRawData = false
    }

    /// A Fujifilm RAF: the header, the JPEG preview with EXIF (Make, Model, Orientation,
    /// DateTimeOriginal), the raw header records (0x100 full size, 0x111 cropped size, 0x121
    /// image size, each height then width) and the raw data, which starts with its own TIFF
    /// directory (IFD0's 0xF000 points to the Fuji IFD: 0xF001 width, 0xF002 height, 0xF003 bits,
    /// 0xF007 strip offset, 0xF008 strip length).
    static func raf(_ raf: RAF) -> [UInt8] {
        let jpeg = withEXIF(
            raf.preview,
            ifd0: [.ascii(0x010F, "FUJIFILM"), .ascii(0x0110, raf.model), .short(0x0112, raf.orientation)],
            exif: [.ascii(0x9003, raf.date)])
        var records: [UInt8] = .be32(3)
        for (tag, h, w) in [
            (0x100, raf.height + 8, raf.width + 16), (0x111, raf.height, raf.width), (0x121, raf.height, raf.width),
        ] {
            records += .be16(tag) + .be16(4) + .be16(h) + .be16(w)
        }
        let pixels = (raf.height + 8) * (raf.width + 16) * 2
        let fujiOffset = 8 + directoryLength([.long(0xF000, 0)])
        let fuji: [Entry] = [
            .long(0xF001, raf.width + 16), .long(0xF002, raf.height + 8), .long(0xF003, 16),
            .long(0xF007, 0), .long(0xF008, pixels),
        ]
        let stripOffset = fujiOffset + directoryLength(fuji)
        var fujiEntries = fuji
        fujiEntries[3] = .long(0xF007, stripOffset)
        var rawTIFF: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A] + .be32(8) + directory([.long(0xF000, fujiOffset)], at: 8)
        rawTIFF += directory(fujiEntries, at: fujiOffset)
        rawTIFF += (0..<pixels).map { UInt8(truncatingIfNeeded: $0 * 7) }

        let headerLength = 160
        let jpegOffset = headerLength
        let recordsOffset = jpegOffset + jpeg.count
        let rawOffset = recordsOffset + records.count
        var header = Array("FUJIFILMCCD-RAW ".utf8) + Array("0201".utf8) + Array("FF129502".utf8)
        header += Array(raf.model.utf8) + [UInt8](repeating: 0, count: 32 - raf.model.utf8.count)
        header += Array("0100".utf8) + [UInt8](repeating: 0, count: 20)
        header += .be32(jpegOffset) + .be32(jpeg.count) + .be32(recordsOffset) + .be32(records.count)
        header += .be32(rawOffset) + .be32(rawTIFF.count)
        header += [UInt8](repeating: 0, count: headerLength - header.count)
        let file = header + jpeg + records + rawTIFF
        return raf.cutRawData ? Array(file.dropLast(rawTIFF.count / 2)) : file
    }

    /// An ISO box.
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        .be32(8 + payload.count) + Array(type.utf8) + payload
    }

    /// A movie header (`moov`) with one track per handler, each `width`×`height`.
    static func moov(handlers: [String], width: Int, height: Int, created: Int = 0) -> [UInt8] {
        var mvhd: [UInt8] = [0, 0, 0, 0] + .be32(created) + .be32(created) + .be32(1000) + .be32(2000)
        mvhd += [UInt8](repeating: 0, count: 80)
        var body = box("mvhd", mvhd)
        for (index, handler) in handlers.enumerated() {
            var tkhd: [UInt8] = [0, 0, 0, 1] + .be32(0) + .be32(0) + .be32(index + 1) + .be32(0) + .be32(2000)
            tkhd += [UInt8](repeating: 0, count: 16)
            tkhd +=
                .be32(0x10000) + .be32(0) + .be32(0) + .be32(0) + .be32(0x10000) + .be32(0) + .be32(0) + .be32(0)
                + .be32(0x4000_0000)
            tkhd += .be32(width << 16) + .be32(height << 16)
            let hdlr = box("hdlr", [0, 0, 0, 0] + .be32(0) + Array(handler.utf8) + [UInt8](repeating: 0, count: 13))
            body += box("trak", box("tkhd", tkhd) + box("mdia", hdlr))
        }
        return box("moov", body)
    }

    /// An AVIF image sequence (`avis`) with only a `moov` (no still image) of `pict` tracks.
    static func avifSequence(width: Int, height: Int) -> [UInt8] {
        let ftyp = box("ftyp", Array("avis".utf8) + .be32(0) + Array("avismsf1miafMA1B".utf8))
        return ftyp + moov(handlers: ["pict"], width: width, height: height) + box("mdat", [1, 2, 3, 4])
    }

    /// `avi` with an `IDIT` chunk holding `date` appended to its header list (`hdrl`).
    static func withIDIT(_ avi: [UInt8], date: String) -> [UInt8] {
        guard let list = avi.firstIndex(of: Array("hdrl".utf8)).map({ $0 - 8 }) else { return avi }
        let listSize = Int(avi.u32(list + 4, bigEndian: false))
        let text = Array(date.utf8) + [0x0A, 0]
        let chunk = Array("IDIT".utf8) + .le32(text.count) + text
        var bytes = Array(avi[..<(list + 8 + listSize)]) + chunk + Array(avi[(list + 8 + listSize)...])
        bytes.replaceSubrange(list + 4..<list + 8, with: [UInt8].le32(listSize + chunk.count))
        bytes.replaceSubrange(4..<8, with: [UInt8].le32(Int(avi.u32(4, bigEndian: false)) + chunk.count))
        return bytes
    }
}
