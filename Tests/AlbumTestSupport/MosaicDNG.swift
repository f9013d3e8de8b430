import Foundation

/// A DNG holding only a camera's raw sensor data and no preview: an uncompressed 16-bit RGGB
/// mosaic in IFD0, written by test code so that LibRaw's development of it can be checked against
/// `dcraw_emu`'s. The picture is red with a blue block in its top-left corner (a quarter of each
/// side), so which way it is shown says how it was turned.
///
/// ```swift
/// try MosaicDNG(width: 64, height: 48, orientation: 6).bytes().write(to: url)
/// ```
public struct MosaicDNG: Sendable {
    public var width: Int
    public var height: Int
    /// The EXIF orientation (1–8) written in IFD0.
    public var orientation: Int
    /// A JPEG stored in IFD1 as the file's only preview (a camera's small thumbnail), or none.
    public var preview: [UInt8]?

    /// A DNG of `width` × `height` sensor pixels (both even), storing `preview` when given.
    public init(width: Int, height: Int, orientation: Int = 1, preview: [UInt8]? = nil) {
        self.width = width
        self.height = height
        self.orientation = orientation
        self.preview = preview
    }

    /// The sensor's samples, row after row: red at even rows and columns, blue at odd ones, green
    /// between (RGGB), little-endian 16-bit.
    func mosaic() -> [UInt8] {
        // Linear values of a sensor seeing pure red or pure blue under the white balance written.
        let red: (UInt16, UInt16, UInt16) = (30000, 3000, 3000)
        let blue: (UInt16, UInt16, UInt16) = (3000, 3000, 30000)
        func row(_ y: Int) -> [UInt8] {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(width * 2)
            for x in stride(from: 0, to: width, by: 2) {
                let colour = y < height / 4 && x < width / 4 ? blue : red
                let pair = y % 2 == 0 ? (colour.0, colour.1) : (colour.1, colour.2)
                bytes += [UInt8(pair.0 & 0xFF), UInt8(pair.0 >> 8), UInt8(pair.1 & 0xFF), UInt8(pair.1 >> 8)]
            }
            return bytes
        }
        // Four kinds of row: the block's two and the rest's two.
        let rows = [row(0), row(1), row(height - 2), row(height - 1)]
        var bytes: [UInt8] = []
        bytes.reserveCapacity(width * height * 2)
        for y in 0..<height { bytes += rows[(y < height / 4 ? 0 : 2) + y % 2] }
        return bytes
    }

    /// The whole file.
    public func bytes() -> [UInt8] {
        let pixels = mosaic()
        func short(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func long(_ value: Int) -> [UInt8] { short(value & 0xFFFF) + short(value >> 16) }
        func ascii(_ text: String) -> [UInt8] { Array(text.utf8) + [0] }
        // XYZ to linear sRGB: the "camera" sees in sRGB's primaries.
        let matrix = [3.2406, -1.5372, -0.4986, -0.9689, 1.8758, 0.0415, 0.0557, -0.2040, 1.0570]
        let colourMatrix = matrix.flatMap { long(Int(($0 * 10000).rounded()) & 0xFFFF_FFFF) + long(10000) }
        // (tag, type, count, value); type 1 BYTE, 2 ASCII, 3 SHORT, 4 LONG, 5 RATIONAL, 10 SRATIONAL.
        var entries: [(Int, Int, Int, [UInt8])] = [
            (254, 4, 1, long(0)), (256, 4, 1, long(width)), (257, 4, 1, long(height)), (258, 3, 1, short(16)),
            (259, 3, 1, short(1)), (262, 3, 1, short(32803)), (271, 2, 9, ascii("AlbumKit")),
            (272, 2, 5, ascii("Test")), (273, 4, 1, long(0)), (274, 3, 1, short(orientation)),
            (277, 3, 1, short(1)), (278, 4, 1, long(height)), (279, 4, 1, long(pixels.count)),
            (284, 3, 1, short(1)), (33421, 3, 2, short(2) + short(2)), (33422, 1, 4, [0, 1, 1, 2]),
            (50706, 1, 4, [1, 4, 0, 0]), (50708, 2, 14, ascii("AlbumKit Test")), (50717, 4, 1, long(65535)),
            (50721, 10, 9, colourMatrix), (50728, 5, 3, long(1) + long(1) + long(1) + long(1) + long(1) + long(1)),
            (50778, 3, 1, short(21)),
        ]
        let directorySize = 2 + 12 * entries.count + 4
        var values: [UInt8] = []
        var offsets: [Int: Int] = [:]
        for entry in entries where entry.3.count > 4 {
            offsets[entry.0] = 8 + directorySize + values.count
            values += entry.3
            if values.count % 2 == 1 { values.append(0) }
        }
        // IFD1, when there is a preview: a JPEG (NewSubfileType 1, Compression 6) at its offset.
        let previewDirectory = 8 + directorySize + values.count
        let previewDirectorySize = preview == nil ? 0 : 2 + 12 * 4 + 4
        let previewBytes = preview ?? []
        let previewStart = previewDirectory + previewDirectorySize
        let strip = previewStart + previewBytes.count + previewBytes.count % 2
        if let index = entries.firstIndex(where: { $0.0 == 273 }) { entries[index].3 = long(strip) }
        var file: [UInt8] = [0x49, 0x49, 0x2A, 0] + long(8) + short(entries.count)
        for (tag, type, count, value) in entries {
            let field =
                value.count > 4 ? long(offsets[tag] ?? 0) : value + [UInt8](repeating: 0, count: 4 - value.count)
            file += short(tag) + short(type) + long(count) + field
        }
        file += long(preview == nil ? 0 : previewDirectory) + values
        if preview != nil {
            file += short(4)
            file += short(254) + short(4) + long(1) + long(1)
            file += short(259) + short(3) + long(1) + short(6) + short(0)
            file += short(513) + short(4) + long(1) + long(previewStart)
            file += short(514) + short(4) + long(1) + long(previewBytes.count)
            file += long(0) + previewBytes + [UInt8](repeating: 0, count: previewBytes.count % 2)
        }
        file.reserveCapacity(file.count + pixels.count)
        file += pixels
        return file
    }
}
