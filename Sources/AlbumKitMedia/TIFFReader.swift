/// Reads TIFF structure and EXIF fields: TIFF, DNG and TIFF-based raw files, and the EXIF blocks
/// embedded in JPEG, PNG, WebP and HEIF.
///
/// In strict mode (a TIFF file) the first directory and the image data it points to must lie
/// inside the file, and the directory chain must not loop; in lenient mode (embedded EXIF) a
/// broken block only loses metadata. Sub-directories (EXIF, GPS, SubIFDs) never fail the file.
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
        var count: UInt32
        /// The 4 value/offset bytes.
        var inline: [UInt8]
    }

    /// A parsed directory.
    struct Directory {
        var entries: [UInt16: Entry] = [:]
        var next: UInt32 = 0
    }

    private var bigEndian = true

    /// Reads the header, IFD0, its chain, and the EXIF, GPS and SubIFD directories.
    mutating func read() throws(MediaInspectionError) -> EXIFInfo {
        guard let header = try reader.bytes(at: base, count: 8) else {
            throw fail("TIFF header runs past the end of the file")
        }
        switch (header[0], header[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: throw fail("TIFF header has an unknown byte order")
        }
        let magic = header.u16(2, bigEndian: bigEndian)
        guard magic == 42 || magic == 0x4F52 || magic == 0x5352 || magic == 0x55 else {
            throw fail("TIFF header has an unknown version \(magic)")
        }
        let ifd0Offset = header.u32(4, bigEndian: bigEndian)
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
            guard let sub = try? directory(at: UInt32(truncatingIfNeeded: offset), what: "SubIFD", required: false)
            else { continue }
            if isRaw(sub) { info.hasRawData = true }
            if int(main, 0x00FE).map({ $0 & 1 == 1 }) ?? false, int(sub, 0x00FE) == 0 { main = sub }
        }
        info.width = int(main, 0x0100)
        info.height = int(main, 0x0101)

        if let exifOffset = int(ifd0, 0x8769),
            let exif = try? directory(
                at: UInt32(truncatingIfNeeded: exifOffset), what: "EXIF directory", required: false)
        {
            if let original = string(exif, 0x9003).flatMap(Self.isoDate) {
                info.captureDate = original + (string(exif, 0x9011).flatMap(Self.offset) ?? "")
            } else if let digitized = string(exif, 0x9004).flatMap(Self.isoDate) {
                info.captureDate = digitized + (string(exif, 0x9012).flatMap(Self.offset) ?? "")
            }
        }
        if let gpsOffset = int(ifd0, 0x8825),
            let gps = try? directory(at: UInt32(truncatingIfNeeded: gpsOffset), what: "GPS directory", required: false)
        {
            readGPS(gps, into: &info)
        }
        return info
    }

    private func fail(_ reason: String) -> MediaInspectionError {
        MediaInspectionError(.corrupt, reason)
    }

    /// A directory at `offset` (relative to the header), or `nil` for a broken optional one.
    private func directory(at offset: UInt32, what: String, required: Bool) throws(MediaInspectionError) -> Directory? {
        let start = base &+ UInt64(offset)
        guard offset >= 8, let countBytes = try reader.bytes(at: start, count: 2) else {
            if required { throw fail("\(what) (offset \(offset)) lies outside the file") }
            return nil
        }
        let count = Int(countBytes.u16(0, bigEndian: bigEndian))
        guard count > 0, count <= Self.maxEntries else {
            if required { throw fail("\(what) has \(count) entries") }
            return nil
        }
        guard let body = try reader.bytes(at: start + 2, count: count * 12 + 4) else {
            if required { throw fail("\(what) at offset \(offset) runs past the end of the file") }
            return nil
        }
        var directory = Directory()
        for i in 0..<count {
            let e = i * 12
            let entry = Entry(
                tag: body.u16(e, bigEndian: bigEndian), type: body.u16(e + 2, bigEndian: bigEndian),
                count: body.u32(e + 4, bigEndian: bigEndian), inline: Array(body[e + 8..<e + 12]))
            if directory.entries[entry.tag] == nil { directory.entries[entry.tag] = entry }
        }
        directory.next = body.u32(count * 12, bigEndian: bigEndian)
        return directory
    }

    /// Follows IFD1, IFD2… (strict: must stay in the file and not loop).
    private func readDirectoryChain(after first: Directory, first offset: UInt32) throws(MediaInspectionError) {
        var seen: Set<UInt32> = [offset]
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

    /// Strict mode: the values and the strips or tiles of `directory` must lie inside the file.
    private func checkImageData(_ directory: Directory, what: String) throws(MediaInspectionError) {
        guard strict else { return }
        for entry in directory.entries.values {
            guard let size = Self.typeSize(entry.type) else { continue }
            let total = UInt64(size) * UInt64(entry.count)
            let offset = UInt64(entry.inline.u32(0, bigEndian: bigEndian))
            if total > 4 && !reader.contains(base &+ offset, total) {
                throw fail(
                    "TIFF tag 0x\(String(entry.tag, radix: 16)) value at offset \(offset) runs past the end of the file"
                )
            }
        }
        for (offsetsTag, countsTag) in [(UInt16(0x0111), UInt16(0x0117)), (0x0144, 0x0145)] {
            let offsets = ints(directory, offsetsTag, limit: Self.maxStrips)
            let counts = ints(directory, countsTag, limit: Self.maxStrips)
            for (offset, count) in zip(offsets, counts) where count > 0 {
                guard reader.contains(base &+ UInt64(offset), UInt64(count)) else {
                    throw fail("\(what) at offset \(offset) runs past the end of the file")
                }
            }
        }
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
        case 5, 10, 12: 8
        default: nil
        }
    }

    /// The raw bytes of an entry's value, at most `limit` bytes.
    private func value(_ entry: Entry, limit: Int) -> [UInt8]? {
        guard let size = Self.typeSize(entry.type) else { return nil }
        let total = UInt64(size) * UInt64(entry.count)
        guard total > 0 else { return nil }
        if total <= 4 { return Array(entry.inline[0..<Int(total)]) }
        let length = Int(min(total, UInt64(limit)))
        let offset = UInt64(entry.inline.u32(0, bigEndian: bigEndian))
        return try? reader.bytes(at: base &+ offset, count: length) ?? nil
    }

    private func ints(_ directory: Directory, _ tag: UInt16, limit: Int) -> [UInt64] {
        guard let entry = directory.entries[tag], let size = Self.typeSize(entry.type),
            [1, 3, 4, 13].contains(entry.type),
            let bytes = value(entry, limit: limit * size)
        else { return [] }
        return stride(from: 0, to: bytes.count - size + 1, by: size).map { i in
            switch size {
            case 1: UInt64(bytes[i])
            case 2: UInt64(bytes.u16(i, bigEndian: bigEndian))
            default: UInt64(bytes.u32(i, bigEndian: bigEndian))
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
