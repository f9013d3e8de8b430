import Foundation

/// A small JPEG (`jpeg-plain.jpg`) given an EXIF segment written here: the camera's make and
/// model, when it was taken and where, as a camera writes them (TIFF little-endian, IFD0 with
/// the EXIF and GPS IFDs). What a listing filters by, without an outside tool.
///
/// ```swift
/// let data = try ExifJPEG(make: "Canon", model: "Canon EOS R6", taken: "2024:05:01 10:20:30",
///                         latitude: 48.8566, longitude: 2.3522).data(tag: "one")
/// ```
struct ExifJPEG {
    var make: String?
    var model: String?
    /// `YYYY:MM:DD HH:MM:SS`, EXIF's DateTimeOriginal.
    var taken: String?
    /// EXIF's OffsetTimeOriginal, `+02:00`.
    var offset: String?
    var latitude: Double?
    var longitude: Double?
    /// EXIF's LensModel.
    var lens: String?

    static let plain = CLI.packageRoot.appendingPathComponent("Tests/AlbumKitMediaTests/Fixtures/corpus/jpeg-plain.jpg")

    private struct Entry {
        let tag: UInt16
        let type: UInt16
        let count: UInt32
        let bytes: [UInt8]
    }

    private static func ascii(_ tag: UInt16, _ text: String) -> Entry {
        let bytes = Array(text.utf8) + [0]
        return Entry(tag: tag, type: 2, count: UInt32(bytes.count), bytes: bytes)
    }

    private static func rationals(_ tag: UInt16, _ degrees: Double) -> Entry {
        // Degrees, minutes, and seconds in 1/10 000.
        let whole = UInt32(degrees)
        let minutes = UInt32((degrees - Double(whole)) * 60)
        let seconds = UInt32(((degrees - Double(whole)) * 60 - Double(minutes)) * 60 * 10_000)
        let values: [(UInt32, UInt32)] = [(whole, 1), (minutes, 1), (seconds, 10_000)]
        return Entry(tag: tag, type: 5, count: 3, bytes: values.flatMap { le32($0.0) + le32($0.1) })
    }

    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }

    /// One IFD at `start` (an offset in the TIFF data) with its values after it; `pointers` are
    /// entries whose value is the offset of an IFD written later, filled by `place`.
    private static func ifd(_ entries: [Entry], at start: Int) -> [UInt8] {
        var out = le16(UInt16(entries.count))
        var data: [UInt8] = []
        let dataStart = start + 2 + 12 * entries.count + 4
        for entry in entries.sorted(by: { $0.tag < $1.tag }) {
            out += le16(entry.tag) + le16(entry.type) + le32(entry.count)
            if entry.bytes.count <= 4 {
                out += entry.bytes + [UInt8](repeating: 0, count: 4 - entry.bytes.count)
            } else {
                out += le32(UInt32(dataStart + data.count))
                data += entry.bytes
                if data.count % 2 == 1 { data.append(0) }
            }
        }
        return out + le32(0) + data
    }

    /// The JPEG's bytes, a comment holding `tag` making them its own.
    func data(tag: String) throws -> Data {
        var exif: [Entry] = []
        if let taken { exif.append(Self.ascii(0x9003, taken)) }
        if let offset { exif.append(Self.ascii(0x9011, offset)) }
        if let lens { exif.append(Self.ascii(0xA434, lens)) }
        var gps: [Entry] = []
        if let latitude, let longitude {
            gps = [
                Self.ascii(0x0001, latitude < 0 ? "S" : "N"), Self.rationals(0x0002, abs(latitude)),
                Self.ascii(0x0003, longitude < 0 ? "W" : "E"), Self.rationals(0x0004, abs(longitude)),
            ]
        }
        var zeroth: [Entry] = []
        if let make { zeroth.append(Self.ascii(0x010F, make)) }
        if let model { zeroth.append(Self.ascii(0x0110, model)) }
        // IFD0 is laid out twice: first to learn its size (the pointers' values do not change it).
        let pointerCount = (exif.isEmpty ? 0 : 1) + (gps.isEmpty ? 0 : 1)
        let placeholder = (0..<pointerCount).map {
            Entry(tag: 0x8769 + UInt16($0), type: 4, count: 1, bytes: [0, 0, 0, 0])
        }
        let zerothSize = Self.ifd(zeroth + placeholder, at: 8).count
        var offset = 8 + zerothSize
        var later: [UInt8] = []
        if !exif.isEmpty {
            zeroth.append(Entry(tag: 0x8769, type: 4, count: 1, bytes: Self.le32(UInt32(offset))))
            let block = Self.ifd(exif, at: offset)
            later += block
            offset += block.count
        }
        if !gps.isEmpty {
            zeroth.append(Entry(tag: 0x8825, type: 4, count: 1, bytes: Self.le32(UInt32(offset))))
            later += Self.ifd(gps, at: offset)
        }
        let tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + Self.le32(8) + Self.ifd(zeroth, at: 8) + later
        let app1 = Array("Exif".utf8) + [0, 0] + tiff
        let comment = Array(tag.utf8)
        let bytes = [UInt8](try Data(contentsOf: Self.plain))
        let segments: [UInt8] =
            [0xFF, 0xE1] + Self.le16(UInt16(app1.count + 2)).reversed() + app1
            + [0xFF, 0xFE] + Self.le16(UInt16(comment.count + 2)).reversed() + comment
        return Data(bytes[0..<2] + segments + bytes[2...])
    }
}
