/// Reads TIFF structure and EXIF fields: TIFF (classic and BigTIFF), DNG and TIFF-based raw files,
/// and the EXIF blocks embedded in JPEG, PNG, WebP, HEIF and RAF.
///
/// In strict mode (a TIFF file) the first directory and the image data it points to must lie
/// inside the file, and the directory chain must not loop; in lenient mode (embedded EXIF) a
/// broken block only loses metadata. Sub-directories (EXIF, GPS, SubIFDs) never fail the file.
/// Damage libtiff tolerates is a warning: a tag whose value lies past the end (libtiff ignores the
/// tag), or a single uncompressed strip whose declared length runs past the end while its rows are
/// all there (libtiff recomputes the length).
/// Every count is bounded: at most ``maxDirectories`` directories, ``maxEntries`` entries each.
struct TIFFReader {
    static let maxDirectories = 64
    static let maxEntries = 4096
    static let maxStrips = 65_536

    let reader: ByteReader
    let strict: Bool
    /// Where the TIFF header starts.
    let base: UInt64

    init(_ reader: ByteReader, base: UInt64 = 0, strict: Bool) {
        self.reader = reader
        self.base = base
        self.strict = strict
    }

    /// One directory entry (tag, type, count and where its value is).
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: UInt64
        /// The value/offset bytes: 4 in a classic TIFF, 8 in a BigTIFF.
        var inline: [UInt8]
    }

    /// A parsed directory.
    struct Directory {
        var entries: [UInt16: Entry] = [:]
        var next: UInt64 = 0
    }

    private var bigEndian = true
    /// BigTIFF (version 43): 8-byte offsets and counts, 20-byte entries.
    private(set) var isBigTIFF = false
    private var offsetSize: Int { isBigTIFF ? 8 : 4 }

    /// Reads the header, IFD0, its chain, and the EXIF, GPS and SubIFD directories.
    mutating func read() throws(MediaInspectionError) -> EXIFInfo {
        let ifd0Offset = try readHeader()
        let ifd0 = try directory(at: ifd0Offset, what: "TIFF first directory", required: true)!
        var info = EXIFInfo()
        try readDirectoryChain(after: ifd0, first: ifd0Offset)
        try checkImageData(ifd0, what: "TIFF image data")

        info.orientation = int(ifd0, 0x0112).flatMap { (1...8).contains($0) ? $0 : nil }
        info.make = string(ifd0, 0x010F)
        info.model = string(ifd0, 0x0110)
        info.isDNG = ifd0.entries[0xC612] != nil
        info.hasSubIFDs = ifd0.entries[0x014A] != nil
        var main = ifd0
        info.hasRawData = isRaw(ifd0)

        for offset in ints(ifd0, 0x014A, limit: 8) {
            // Optional directories (strict: false): a damaged one only leaves its details out.
            guard let sub = try? directory(at: offset, what: "SubIFD", required: false)
            else { continue }
            if isRaw(sub) { info.hasRawData = true }
            if int(main, 0x00FE).map({ $0 & 1 == 1 }) ?? false, int(sub, 0x00FE) == 0 { main = sub }
        }
        info.width = int(main, 0x0100)
        info.height = int(main, 0x0101)

        // DateTimeOriginal, then CreateDate: in the EXIF directory, else in IFD0 (some writers put them there).
        let exif = ints(ifd0, 0x8769, limit: 1).first.flatMap {
            // A damaged EXIF directory loses its dates, not the photo.
            try? directory(at: $0, what: "EXIF directory", required: false)
        }
        for (dateTag, offsetTag) in [(UInt16(0x9003), UInt16(0x9011)), (0x9004, 0x9012)] where info.captureDate == nil {
            for directory in [exif, ifd0].compactMap({ $0 }) {
                if let date = string(directory, dateTag).flatMap(Self.isoDate) {
                    info.captureDate = date + (string(directory, offsetTag).flatMap(Self.offset) ?? "")
                    break
                }
            }
        }
        if let gpsOffset = ints(ifd0, 0x8825, limit: 1).first,
            // A damaged GPS directory loses the place, not the photo.
            let gps = try? directory(at: gpsOffset, what: "GPS directory", required: false)
        {
            readGPS(gps, into: &info)
        }
        if let fujiOffset = ints(ifd0, 0xF000, limit: 1).first,
            // A damaged Fuji directory loses the raw's size, not the photo.
            let fuji = try? directory(at: fujiOffset, what: "Fuji raw directory", required: false)
        {
            info.rawWidth = int(fuji, 0xF001)
            info.rawHeight = int(fuji, 0xF002)
        }
        // XMP (tag 700) fills what EXIF lacks.
        if let entry = ifd0.entries[0x02BC], [1, 7].contains(entry.type),
            let packet = value(entry, limit: XMPPacket.maxBytes)
        {
            info.merge(XMPPacket(packet))
        }
        // Then IPTC: bare (IPTC-NAA, 33723; a LONG array as often as UNDEFINED) or in Photoshop's
        // image resources (34377).
        if info.captureDate == nil, let entry = ifd0.entries[0x83BB], [1, 4, 7].contains(entry.type),
            let record = value(entry, limit: 1 << 20)
        {
            info.merge(IPTCRecord(iim: record))
        }
        if info.captureDate == nil, let entry = ifd0.entries[0x8649], [1, 7].contains(entry.type),
            let resources = value(entry, limit: 1 << 20)
        {
            info.merge(IPTCRecord(imageResources: resources))
        }
        return info
    }

    /// Where IFD1's JPEG thumbnail (JPEGInterchangeFormat 0x0201, length 0x0202) lies in the
    /// reader, or `nil` when the file has none or its tags point outside the file.
    mutating func thumbnailRange() throws(MediaInspectionError) -> (offset: UInt64, count: Int)? {
        let ifd0Offset = try readHeader()
        guard let ifd0 = try directory(at: ifd0Offset, what: "TIFF first directory", required: false),
            ifd0.next != 0, let ifd1 = try directory(at: ifd0.next, what: "TIFF thumbnail directory", required: false),
            let offset = ints(ifd1, 0x0201, limit: 1).first, let length = ints(ifd1, 0x0202, limit: 1).first,
            length > 0, length <= UInt64(Self.maxThumbnailBytes)
        else { return nil }
        let (start, overflow) = base.addingReportingOverflow(offset)
        guard !overflow, reader.contains(start, length) else { return nil }
        return (start, Int(length))
    }

    /// The ranges of every JPEG preview the file stores in a directory of its own: IFD0 and IFD1
    /// (EXIF's thumbnail; the preview of Sony, Canon and Pentax raws), and IFD0's SubIFDs (the
    /// previews of Nikon raws and DNG), each a `JPEGInterchangeFormat` range or a single JPEG strip
    /// whose pixels are not sensor data. Ranges outside the file are left out.
    mutating func previewRanges() throws(MediaInspectionError) -> [(offset: UInt64, count: Int)] {
        let ifd0Offset = try readHeader()
        guard let ifd0 = try directory(at: ifd0Offset, what: "TIFF first directory", required: false) else { return [] }
        var directories = [ifd0]
        if ifd0.next != 0, let ifd1 = try directory(at: ifd0.next, what: "TIFF second directory", required: false) {
            directories.append(ifd1)
        }
        for offset in ints(ifd0, 0x014A, limit: 8) {
            if let sub = try directory(at: offset, what: "TIFF SubIFD", required: false) { directories.append(sub) }
        }
        var ranges: [(offset: UInt64, count: Int)] = []
        for directory in directories {
            var offset = ints(directory, 0x0201, limit: 1).first
            var length = ints(directory, 0x0202, limit: 1).first
            // A JPEG strip (compression 6 or 7) of colour pixels, not a CFA or linear-raw mosaic.
            let photometric = int(directory, 0x0106)
            if offset == nil, let compression = int(directory, 0x0103), compression == 6 || compression == 7,
                photometric != 32803, photometric != 34892
            {
                let strips = ints(directory, 0x0111, limit: 2)
                let counts = ints(directory, 0x0117, limit: 2)
                if strips.count == 1, counts.count == 1 { (offset, length) = (strips[0], counts[0]) }
            }
            guard let offset, let length, length > 0, length <= UInt64(Self.maxThumbnailBytes) else { continue }
            let (start, overflow) = base.addingReportingOverflow(offset)
            guard !overflow, reader.contains(start, length) else { continue }
            ranges.append((start, Int(length)))
        }
        return ranges
    }

    /// The largest embedded thumbnail read (EXIF in a JPEG is at most 64 KB; raw previews are larger).
    static let maxThumbnailBytes = 16 << 20

    /// Reads the byte order and version; returns IFD0's offset.
    private mutating func readHeader() throws(MediaInspectionError) -> UInt64 {
        guard let header = try reader.bytes(at: base, count: 8) else {
            throw fail("TIFF header runs past the end of the file")
        }
        switch (header[0], header[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: throw fail("TIFF header has an unknown byte order")
        }
        let magic = header.u16(2, bigEndian: bigEndian)
        guard magic == 42 || magic == 43 || magic == 0x4F52 || magic == 0x5352 || magic == 0x55 else {
            throw fail("TIFF header has an unknown version \(magic)")
        }
        let ifd0Offset: UInt64
        if magic == 43 {
            guard let big = try reader.bytes(at: base, count: 16), big.u16(4, bigEndian: bigEndian) == 8,
                big.u16(6, bigEndian: bigEndian) == 0
            else { throw fail("BigTIFF header is not 16 bytes with 8-byte offsets") }
            isBigTIFF = true
            ifd0Offset = big.u64(8, bigEndian: bigEndian)
        } else {
            ifd0Offset = UInt64(header.u32(4, bigEndian: bigEndian))
        }
        return ifd0Offset
    }

    private func fail(_ reason: String) -> MediaInspectionError {
        MediaInspectionError(.corrupt, reason)
    }

    /// A directory at `offset` (relative to the header), or `nil` for a broken optional one.
    private func directory(at offset: UInt64, what: String, required: Bool) throws(MediaInspectionError) -> Directory? {
        let (start, overflow) = base.addingReportingOverflow(offset)
        let countSize = isBigTIFF ? 8 : 2
        guard offset >= 8, !overflow, let countBytes = try reader.bytes(at: start, count: countSize) else {
            if required { throw fail("\(what) (offset \(offset)) lies outside the file") }
            return nil
        }
        let declared =
            isBigTIFF ? countBytes.u64(0, bigEndian: bigEndian) : UInt64(countBytes.u16(0, bigEndian: bigEndian))
        guard declared > 0, declared <= UInt64(Self.maxEntries) else {
            if required { throw fail("\(what) has \(declared) entries") }
            return nil
        }
        let count = Int(declared)
        let entrySize = isBigTIFF ? 20 : 12
        guard let body = try reader.bytes(at: start + UInt64(countSize), count: count * entrySize + offsetSize) else {
            if required { throw fail("\(what) at offset \(offset) runs past the end of the file") }
            return nil
        }
        var directory = Directory()
        for i in 0..<count {
            let e = i * entrySize
            let entry = Entry(
                tag: body.u16(e, bigEndian: bigEndian), type: body.u16(e + 2, bigEndian: bigEndian),
                count: isBigTIFF
                    ? body.u64(e + 4, bigEndian: bigEndian) : UInt64(body.u32(e + 4, bigEndian: bigEndian)),
                inline: Array(body[e + entrySize - offsetSize..<e + entrySize]))
            if directory.entries[entry.tag] == nil { directory.entries[entry.tag] = entry }
        }
        directory.next = readOffset(body, at: count * entrySize)
        return directory
    }

    /// An offset field (4 or 8 bytes) of `bytes` at `index`.
    private func readOffset(_ bytes: [UInt8], at index: Int) -> UInt64 {
        isBigTIFF ? bytes.u64(index, bigEndian: bigEndian) : UInt64(bytes.u32(index, bigEndian: bigEndian))
    }

    /// Follows IFD1, IFD2… (strict: must stay in the file and not loop).
    private func readDirectoryChain(after first: Directory, first offset: UInt64) throws(MediaInspectionError) {
        var seen: Set<UInt64> = [offset]
        var next = first.next
        while next != 0 {
            guard seen.insert(next).inserted else {
                if strict { throw fail("TIFF directory chain loops back to offset \(next)") }
                return
            }
            guard seen.count <= Self.maxDirectories else {
                if strict { throw fail("TIFF has more than \(Self.maxDirectories) directories") }
                return
            }
            guard let directory = try directory(at: next, what: "TIFF directory", required: strict) else { return }
            next = directory.next
        }
    }

    /// The tags that locate the image data: their values must be in the file.
    private static let imageDataTags: Set<UInt16> = [0x0111, 0x0117, 0x0144, 0x0145]

    /// Strict mode: the values and the strips or tiles of `directory` must lie inside the file.
    ///
    /// As libtiff: another tag whose value lies past the end is ignored (a warning), and a single
    /// uncompressed strip whose declared length runs past the end is accepted (a warning) when the
    /// rows it must hold are all in the file.
    private func checkImageData(_ directory: Directory, what: String) throws(MediaInspectionError) {
        guard strict else { return }
        for entry in directory.entries.values.sorted(by: { $0.tag < $1.tag }) {
            guard let size = Self.typeSize(entry.type) else { continue }
            let (total, overflow) = UInt64(size).multipliedReportingOverflow(by: entry.count)
            let offset = readOffset(entry.inline, at: 0)
            let (start, past) = base.addingReportingOverflow(offset)
            if overflow || (total > UInt64(offsetSize) && (past || !reader.contains(start, total))) {
                let tag = "0x" + String(entry.tag, radix: 16)
                guard !Self.imageDataTags.contains(entry.tag) else {
                    throw fail("TIFF tag \(tag) value at offset \(offset) runs past the end of the file")
                }
                reader.warn("TIFF tag \(tag) value at offset \(offset) runs past the end of the file; it is ignored")
            }
        }
        for (offsetsTag, countsTag) in [(UInt16(0x0111), UInt16(0x0117)), (0x0144, 0x0145)] {
            let offsets = ints(directory, offsetsTag, limit: Self.maxStrips)
            let counts = ints(directory, countsTag, limit: Self.maxStrips)
            for (offset, count) in zip(offsets, counts) where count > 0 {
                let (start, overflow) = base.addingReportingOverflow(offset)
                guard overflow || !reader.contains(start, count) else { continue }
                if offsetsTag == 0x0111, offsets.count == 1, !overflow, let needed = uncompressedStripBytes(directory),
                    reader.contains(start, needed)
                {
                    reader.warn(
                        "TIFF strip at offset \(offset) says it has \(count) bytes, past the end of the file; its \(needed) bytes of rows are all there"
                    )
                    continue
                }
                throw fail("\(what) at offset \(offset) runs past the end of the file")
            }
        }
    }

    /// The bytes an uncompressed, single-plane image's rows take, or `nil` for a compressed one.
    private func uncompressedStripBytes(_ directory: Directory) -> UInt64? {
        guard int(directory, 0x0103) ?? 1 == 1, int(directory, 0x011C) ?? 1 == 1,
            let width = ints(directory, 0x0100, limit: 1).first, let height = ints(directory, 0x0101, limit: 1).first
        else { return nil }
        let samples = UInt64(int(directory, 0x0115) ?? 1)
        let bits = ints(directory, 0x0102, limit: 16).first ?? 1
        let (bitsPerPixel, o1) = samples.multipliedReportingOverflow(by: bits)
        let (rowBits, o2) = bitsPerPixel.multipliedReportingOverflow(by: width)
        let (total, o3) = ((rowBits + 7) / 8).multipliedReportingOverflow(by: height)
        return o1 || o2 || o3 ? nil : total
    }

    /// Colour-filter-array or linear raw data, or Nikon's raw compression.
    private func isRaw(_ directory: Directory) -> Bool {
        let photometric = int(directory, 0x0106)
        return photometric == 32803 || photometric == 34892 || int(directory, 0x0103) == 34713
    }

    // MARK: Values

    private static func typeSize(_ type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1
        case 3, 8: 2
        case 4, 9, 11, 13: 4
        case 5, 10, 12, 16, 17, 18: 8
        default: nil
        }
    }

    /// The raw bytes of an entry's value, at most `limit` bytes.
    private func value(_ entry: Entry, limit: Int) -> [UInt8]? {
        guard let size = Self.typeSize(entry.type) else { return nil }
        let (total, overflow) = UInt64(size).multipliedReportingOverflow(by: entry.count)
        guard total > 0 else { return nil }
        if !overflow, total <= UInt64(offsetSize) { return Array(entry.inline[0..<Int(total)]) }
        let length = Int(min(overflow ? UInt64.max : total, UInt64(limit)))
        let (start, past) = base.addingReportingOverflow(readOffset(entry.inline, at: 0))
        guard !past else { return nil }
        // A value out of the file counts as missing (optional tags only).
        return try? reader.bytes(at: start, count: length) ?? nil
    }

    /// An entry's unsigned integers (BYTE, SHORT, LONG, IFD, LONG8, IFD8), at most `limit` of them.
    private func ints(_ directory: Directory, _ tag: UInt16, limit: Int) -> [UInt64] {
        guard let entry = directory.entries[tag], let size = Self.typeSize(entry.type),
            [1, 3, 4, 13, 16, 18].contains(entry.type),
            let bytes = value(entry, limit: limit * size)
        else { return [] }
        return stride(from: 0, to: bytes.count - size + 1, by: size).map { i in
            switch size {
            case 1: UInt64(bytes[i])
            case 2: UInt64(bytes.u16(i, bigEndian: bigEndian))
            case 4: UInt64(bytes.u32(i, bigEndian: bigEndian))
            default: bytes.u64(i, bigEndian: bigEndian)
            }
        }
    }

    private func int(_ directory: Directory, _ tag: UInt16) -> Int? {
        ints(directory, tag, limit: 1).first.map { Int($0) }
    }

    private func string(_ directory: Directory, _ tag: UInt16) -> String? {
        guard let entry = directory.entries[tag], entry.type == 2 || entry.type == 7,
            let bytes = value(entry, limit: 256)
        else { return nil }
        return bytes.cString(0..<bytes.count)
    }

    private func rationals(_ directory: Directory, _ tag: UInt16, count: Int) -> [Double]? {
        guard let entry = directory.entries[tag], entry.type == 5 || entry.type == 10, entry.count >= count,
            let bytes = value(entry, limit: 8 * count), bytes.count >= 8 * count
        else { return nil }
        var values: [Double] = []
        for i in 0..<count {
            let n = bytes.u32(8 * i, bigEndian: bigEndian)
            let d = bytes.u32(8 * i + 4, bigEndian: bigEndian)
            guard d != 0 else { return nil }
            values.append(
                entry.type == 10 ? Double(Int32(bitPattern: n)) / Double(Int32(bitPattern: d)) : Double(n) / Double(d))
        }
        return values
    }

    private func readGPS(_ gps: Directory, into info: inout EXIFInfo) {
        func coordinate(_ valueTag: UInt16, _ refTag: UInt16, negative: Character, max: Double) -> Double? {
            guard let parts = rationals(gps, valueTag, count: 3), let ref = string(gps, refTag)?.uppercased().first
            else { return nil }
            let degrees = parts[0] + parts[1] / 60 + parts[2] / 3600
            guard degrees.isFinite, degrees >= 0, degrees <= max else { return nil }
            return ref == negative ? -degrees : degrees
        }
        if let latitude = coordinate(2, 1, negative: "S", max: 90),
            let longitude = coordinate(4, 3, negative: "W", max: 180)
        {
            info.latitude = latitude
            info.longitude = longitude
        }
        if let altitude = rationals(gps, 6, count: 1)?.first, altitude.isFinite {
            let below = ints(gps, 5, limit: 1).first == 1
            info.altitude = below ? -altitude : altitude
        }
    }

    // MARK: Dates

    /// "2024:05:01 10:20:30" → "2024-05-01T10:20:30"; `nil` for blank or zero dates.
    static func isoDate(_ text: String) -> String? {
        let c = Array(text.utf8)
        guard c.count >= 19 else { return nil }
        let digits = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
        guard digits.allSatisfy({ c[$0] >= 0x30 && c[$0] <= 0x39 }),
            c[4] == c[7], c[4] == 0x3A || c[4] == 0x2D, c[13] == 0x3A, c[16] == 0x3A
        else { return nil }
        let year = String(decoding: c[0..<4], as: UTF8.self)
        let month = String(decoding: c[5..<7], as: UTF8.self)
        let day = String(decoding: c[8..<10], as: UTF8.self)
        guard year != "0000", month != "00", day != "00" else { return nil }
        return "\(year)-\(month)-\(day)T" + String(decoding: c[11..<19], as: UTF8.self)
    }

    /// "+02:00" / "-05:30" / "Z" as given; `nil` for anything else.
    static func offset(_ text: String) -> String? {
        if text == "Z" { return "Z" }
        let c = Array(text.utf8)
        guard c.count == 6, c[0] == 0x2B || c[0] == 0x2D, c[3] == 0x3A,
            [1, 2, 4, 5].allSatisfy({ c[$0] >= 0x30 && c[$0] <= 0x39 })
        else { return nil }
        return text
    }
}
