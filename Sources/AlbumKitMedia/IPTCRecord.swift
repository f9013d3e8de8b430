/// The capture date of an IPTC IIM record, as Photoshop, Bridge, Photo Mechanic and news agencies
/// write it: DateCreated (dataset 2:55, `CCYYMMDD`) with TimeCreated (2:60, `HHMMSS±HHMM`), the pair
/// exiftool joins into its Composite DateTimeOriginal.
///
/// The record is found inside Photoshop's image resources (`8BIM` blocks, resource 0x0404), which
/// JPEG carries in an APP13 segment (`Photoshop 3.0`) and TIFF in tag 34377, or bare in TIFF's
/// tag 33723. Every length is checked against the bytes at hand; a record that stops early only
/// loses what follows.
///
/// ```swift
/// IPTCRecord(iim: [0x1C, 2, 55, 0, 8] + Array("20240501".utf8) + [0x1C, 2, 60, 0, 11] + Array("102030+0200".utf8))?
///     .captureDate   // "2024-05-01T10:20:30+02:00"
/// ```
struct IPTCRecord: Equatable {
    /// DateCreated and TimeCreated as ISO 8601 (with the offset when the time has one); `nil` when
    /// the record has no valid pair (a day without a time of day is not used, as for XMP).
    var captureDate: String?

    /// The signature of a JPEG APP13 segment holding Photoshop image resources.
    static let photoshopSignature = Array("Photoshop 3.0\0".utf8)
    /// The image resource holding the IIM record.
    static let iimResource: UInt16 = 0x0404

    /// Reads the IIM record in Photoshop image resources (`8BIM` blocks); `nil` without a date.
    init?(imageResources bytes: [UInt8]) {
        var i = 0
        while i + 12 <= bytes.count, bytes.starts(with: Array("8BIM".utf8), at: i) {
            let id = bytes.u16(i + 4)
            // A Pascal string name, padded so that its length byte and text fill an even count.
            let nameLength = Int(bytes[i + 6])
            let sizeAt = i + 6 + ((nameLength + 2) & ~1)
            guard sizeAt + 4 <= bytes.count else { return nil }
            let size = Int(bytes.u32(sizeAt))
            let data = sizeAt + 4
            guard size <= bytes.count - data else { return nil }
            if id == Self.iimResource {
                self.init(iim: Array(bytes[data..<data + size]))
                return
            }
            i = data + size + (size & 1)
        }
        return nil
    }

    /// Reads an IIM record (datasets `1C record dataset length data`); `nil` without a date.
    init?(iim bytes: [UInt8]) {
        var date: [UInt8]?
        var time: [UInt8]?
        var i = 0
        while i + 5 <= bytes.count, bytes[i] == 0x1C {
            let record = bytes[i + 1]
            let dataset = bytes[i + 2]
            var length = Int(bytes.u16(i + 3))
            var data = i + 5
            if length & 0x8000 != 0 {
                // An extended length: the next (length & 0x7FFF) bytes hold it.
                let count = length & 0x7FFF
                guard count <= 4, data + count <= bytes.count else { return nil }
                length = bytes[data..<data + count].reduce(0) { $0 << 8 | Int($1) }
                data += count
            }
            guard length <= bytes.count - data else { break }
            if record == 2, dataset == 55, date == nil { date = Array(bytes[data..<data + length]) }
            if record == 2, dataset == 60, time == nil { time = Array(bytes[data..<data + length]) }
            i = data + length
        }
        guard let date, let time, let value = Self.isoDate(date: date, time: time) else { return nil }
        captureDate = value
    }

    /// `CCYYMMDD` and `HHMMSS` (optionally `±HHMM`) as `CCYY-MM-DDTHH:MM:SS±HH:MM`; `nil` for
    /// anything else, and for the zero day IIM uses for "unknown".
    static func isoDate(date: [UInt8], time: [UInt8]) -> String? {
        let isDigit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
        guard date.count == 8, date.allSatisfy(isDigit), time.count == 6 || time.count == 11,
            time[0..<6].allSatisfy(isDigit)
        else { return nil }
        let text = { (bytes: ArraySlice<UInt8>) in String(decoding: bytes, as: UTF8.self) }
        let (year, month, day) = (text(date[0..<4]), text(date[4..<6]), text(date[6..<8]))
        guard year != "0000", (1...12).contains(Int(month) ?? 0), (1...31).contains(Int(day) ?? 0),
            (Int(text(time[0..<2])) ?? 99) < 24, (Int(text(time[2..<4])) ?? 99) < 60,
            (Int(text(time[4..<6])) ?? 99) <= 60
        else { return nil }
        var offset = ""
        if time.count == 11 {
            guard time[6] == UInt8(ascii: "+") || time[6] == UInt8(ascii: "-"), time[7..<11].allSatisfy(isDigit)
            else { return nil }
            offset = text(time[6..<9]) + ":" + text(time[9..<11])
        }
        return "\(year)-\(month)-\(day)T\(text(time[0..<2])):\(text(time[2..<4])):\(text(time[4..<6]))\(offset)"
    }
}

extension EXIFInfo {
    /// Fills a capture date EXIF and XMP lack from an IPTC record (exiftool's Composite order: EXIF,
    /// then XMP, then IPTC).
    mutating func merge(_ iptc: IPTCRecord?) {
        captureDate = captureDate ?? iptc?.captureDate
    }
}
