/// Decodes Windows and OS/2 bitmaps (BMP) into RGB(A) pixels: libvips has no BMP loader of its own
/// (its ImageMagick loader is blocked on purpose), so AlbumKit reads them itself and hands the pixels
/// to libvips for scaling and encoding.
///
/// Every variant viewers open is read: OS/2 1.x (`BITMAPCOREHEADER`), Windows 3 to 5 headers
/// (`BITMAPINFOHEADER`, V2, V3, V4, V5) and OS/2 2.x; 1, 2, 4 and 8-bit palettes (a palette of grey
/// ramps read as grey, as Pillow does), RLE8 and RLE4 with their deltas, 16, 24 and 32 bits with or
/// without bit-field masks (any masks, alpha when a mask says so, Windows CE's alpha bit fields
/// too), bottom-up and top-down rows. It
/// is bounded: at most ``largestPicture`` pixels, every offset checked against the file's length,
/// nothing read past its end. Pixel data cut short is shown as far as it goes (the rest black), as
/// viewers show a scan cut short, unless `strict`.
///
/// ```swift
/// let pixels = try BMPDecoder.decode(bytes)             // PreviewError(.undecodable) naming the cause
/// let thumbnail = try renderer.render(pixels, maxPixelSize: 256)
/// ```
package enum BMPDecoder {
    /// The most pixels a bitmap may have (8192 × 8192): a larger one is refused before anything is
    /// allocated (its RGBA pixels would take more than 256 MB).
    package static let largestPicture = 8192 * 8192

    /// The sizes of the headers in use: OS/2 1.x, Windows 3 (INFO), V2, V3, OS/2 2.x, V4 and V5.
    static let headerSizes: Set<Int> = [12, 40, 52, 56, 64, 108, 124]

    /// The picture in `bytes` (a whole BMP file), top row first.
    ///
    /// ```swift
    /// let pixels = try BMPDecoder.decode(Array(data))
    /// ```
    /// - Throws: ``PreviewError`` `.undecodable` saying what is wrong: not a bitmap, a header or
    ///   palette past the end of the file, a size of no pixels or more than ``largestPicture``, a
    ///   depth or compression that is not a bitmap's, no pixel data (or, when `strict`, pixel data
    ///   cut short).
    package static func decode(_ bytes: [UInt8], strict: Bool = false) throws(PreviewError) -> DecodedPixels {
        let layout = try Layout(bytes)
        let table = try palette(bytes, layout)
        let count = layout.width * layout.height
        var samples = [UInt8](repeating: 0, count: count * layout.bands)
        switch layout.compression {
        case 1, 2:
            let (indices, complete) = runs(bytes, layout)
            guard complete || !strict else {
                throw PreviewError(.undecodable, "the BMP's compressed pixels end before its last row")
            }
            samples.withUnsafeMutableBufferPointer { out in
                for row in 0..<layout.height {
                    let y = layout.topDown ? row : layout.height - 1 - row
                    for x in 0..<layout.width {
                        let index = Int(indices[row * layout.width + x])
                        let target = (y * layout.width + x) * 3
                        out[target] = table[index * 3]
                        out[target + 1] = table[index * 3 + 1]
                        out[target + 2] = table[index * 3 + 2]
                    }
                }
            }
        default:
            try rows(bytes, layout, table, strict: strict, into: &samples)
        }
        return DecodedPixels(width: layout.width, height: layout.height, bands: layout.bands, samples: samples)
    }

    /// What a bitmap's headers say, checked.
    struct Layout {
        var width: Int
        var height: Int
        var bits: Int
        var compression: Int
        var topDown: Bool
        /// Where the pixels start.
        var pixelOffset: Int
        /// Where the palette starts, its entries and the bytes each takes (3 in OS/2 1.x, else 4).
        var paletteOffset: Int
        var colours: Int
        var paletteEntry: Int
        /// Red, green, blue and alpha masks of a 16, 24 or 32-bit pixel (alpha 0: no alpha).
        var masks: [UInt32]
        var bands: Int { masks[3] != 0 && bits > 8 ? 4 : 3 }

        init(_ bytes: [UInt8]) throws(PreviewError) {
            guard bytes.count >= 18, bytes[0] == 0x42, bytes[1] == 0x4D else {
                throw PreviewError(.undecodable, "the file is not a BMP (it does not start with “BM”)")
            }
            let headerSize = Int(BMPDecoder.u32(bytes, 14))
            guard BMPDecoder.headerSizes.contains(headerSize) else {
                throw PreviewError(.undecodable, "the BMP's header of \(headerSize) bytes is of no known kind")
            }
            guard 14 + headerSize <= bytes.count else {
                throw PreviewError(
                    .undecodable, "the BMP's header of \(headerSize) bytes runs past the end of the file")
            }
            var declaredOffset = Int(BMPDecoder.u32(bytes, 10))
            var withAlpha = false
            paletteOffset = 14 + headerSize
            masks = [0, 0, 0, 0]
            if headerSize == 12 {
                width = Int(BMPDecoder.u16(bytes, 18))
                height = Int(BMPDecoder.u16(bytes, 20))
                bits = Int(BMPDecoder.u16(bytes, 24))
                compression = 0
                topDown = false
                colours = 0
                paletteEntry = 3
            } else {
                width = Int(Int32(bitPattern: BMPDecoder.u32(bytes, 18)))
                let storedHeight = Int32(bitPattern: BMPDecoder.u32(bytes, 22))
                topDown = storedHeight < 0
                height = storedHeight == Int32.min ? 0 : Int(abs(storedHeight))
                bits = Int(BMPDecoder.u16(bytes, 28))
                compression = Int(BMPDecoder.u32(bytes, 30))
                colours = Int(BMPDecoder.u32(bytes, 46))
                paletteEntry = 4
                if compression == 6 {
                    // BI_ALPHABITFIELDS (Windows CE): bit fields with an alpha mask, always.
                    compression = 3
                    withAlpha = true
                }
                if compression == 3 {
                    // The masks follow a 40-byte header; larger headers hold them at the same place,
                    // alpha's from V3 (56 bytes) on.
                    withAlpha = withAlpha || headerSize >= 56
                    let end = withAlpha ? 70 : 66
                    guard end <= bytes.count else {
                        throw PreviewError(.undecodable, "the BMP's colour masks run past the end of the file")
                    }
                    masks = [
                        BMPDecoder.u32(bytes, 54), BMPDecoder.u32(bytes, 58), BMPDecoder.u32(bytes, 62),
                        withAlpha ? BMPDecoder.u32(bytes, 66) : 0,
                    ]
                    if headerSize == 40 { paletteOffset = withAlpha ? 70 : 66 }
                }
            }
            guard width > 0, height > 0 else {
                throw PreviewError(.undecodable, "the BMP's header gives it no pixels (\(width) × \(height))")
            }
            guard width <= BMPDecoder.largestPicture / height else {
                throw PreviewError(
                    .undecodable,
                    "the BMP is \(width) × \(height) pixels, more than the \(BMPDecoder.largestPicture) AlbumKit decodes"
                )
            }
            guard compression != 4 && compression != 5 else {
                // Printers' BMPs (depth 0): the file is a JPEG or PNG in a bitmap's header.
                throw PreviewError(
                    .undecodable,
                    "the BMP holds a \(compression == 4 ? "JPEG" : "PNG") picture, which AlbumKit does not read")
            }
            guard [1, 2, 4, 8, 16, 24, 32].contains(bits) else {
                throw PreviewError(.undecodable, "the BMP's depth of \(bits) bits a pixel is not a bitmap's")
            }
            switch compression {
            case 0:
                if bits == 16 { masks = [0x7C00, 0x03E0, 0x001F, 0] }
                if bits >= 24 { masks = [0xFF_0000, 0xFF00, 0xFF, 0] }
            case 1, 2:
                guard bits <= 8 else {
                    throw PreviewError(.undecodable, "the BMP is run-length coded at \(bits) bits a pixel")
                }
            case 3:
                guard bits >= 16 else {
                    throw PreviewError(.undecodable, "the BMP has colour masks at \(bits) bits a pixel")
                }
                // No masks at all: bytes in blue, green, red, alpha order (as Pillow reads them).
                if masks == [0, 0, 0, 0] {
                    masks = bits == 32 ? [0xFF_0000, 0xFF00, 0xFF, 0xFF00_0000] : [0x7C00, 0x03E0, 0x001F, 0]
                }
            default:
                throw PreviewError(.undecodable, "the BMP's compression \(compression) is of no known kind")
            }
            if bits <= 8 {
                if colours == 0 { colours = 1 << bits }
                guard colours <= 65536 else {
                    throw PreviewError(.undecodable, "the BMP's palette of \(colours) colours is too large")
                }
                guard paletteOffset + min(colours, 256) * paletteEntry <= bytes.count else {
                    throw PreviewError(
                        .undecodable, "the BMP's palette of \(colours) colours runs past the end of the file")
                }
                // Some writers point at the palette, not past it.
                if declaredOffset == 14 + headerSize { declaredOffset += paletteEntry * colours }
            }
            let afterPalette = paletteOffset + (bits <= 8 ? paletteEntry * colours : 0)
            pixelOffset = declaredOffset == 0 ? afterPalette : declaredOffset
            guard pixelOffset < bytes.count else {
                throw PreviewError(
                    .undecodable,
                    "the BMP's pixels would start at byte \(pixelOffset), past the end of its \(bytes.count) bytes")
            }
        }
    }

    /// 256 RGB entries: the file's palette, or for grey ramps (Pillow reads those as grey) each index
    /// as its own grey; entries the palette does not give are black.
    static func palette(_ bytes: [UInt8], _ layout: Layout) throws(PreviewError) -> [UInt8] {
        guard layout.bits <= 8 else { return [] }
        let used = min(layout.colours, 256)
        guard layout.paletteOffset + used * layout.paletteEntry <= bytes.count else {
            throw PreviewError(
                .undecodable, "the BMP's palette of \(layout.colours) colours runs past the end of the file")
        }
        var table = [UInt8](repeating: 0, count: 256 * 3)
        var grey = true
        for index in 0..<used {
            let at = layout.paletteOffset + index * layout.paletteEntry
            let (blue, green, red) = (bytes[at], bytes[at + 1], bytes[at + 2])
            (table[index * 3], table[index * 3 + 1], table[index * 3 + 2]) = (red, green, blue)
            let ramp = layout.colours == 2 ? (index == 0 ? 0 : 255) : index
            if red != ramp || green != ramp || blue != ramp { grey = false }
        }
        if grey && layout.colours > 2 && layout.colours <= 256 {
            for index in 0..<256 {
                (table[index * 3], table[index * 3 + 1], table[index * 3 + 2]) = (
                    UInt8(index), UInt8(index), UInt8(index)
                )
            }
        }
        return table
    }

    /// The rows of an uncompressed bitmap, turned into RGB(A) samples top row first.
    static func rows(
        _ bytes: [UInt8], _ layout: Layout, _ table: [UInt8], strict: Bool, into samples: inout [UInt8]
    ) throws(PreviewError) {
        let stride = ((layout.width * layout.bits + 31) >> 5) * 4
        let used = (layout.width * layout.bits + 7) / 8
        let bands = layout.bands
        let channels = layout.masks.map(Channel.init)
        let complete =
            (bytes.count - layout.pixelOffset) / stride
            + ((bytes.count - layout.pixelOffset) % stride >= used ? 1 : 0)
        guard complete >= layout.height || !strict else {
            throw PreviewError(
                .undecodable, "the BMP's pixels end after \(complete) of its \(layout.height) rows")
        }
        guard complete > 0 else {
            throw PreviewError(.undecodable, "the BMP's pixels end before its first row is whole")
        }
        bytes.withUnsafeBufferPointer { file in
            samples.withUnsafeMutableBufferPointer { out in
                for row in 0..<min(complete, layout.height) {
                    let start = layout.pixelOffset + row * stride
                    let y = layout.topDown ? row : layout.height - 1 - row
                    var target = y * layout.width * bands
                    for x in 0..<layout.width {
                        if layout.bits <= 8 {
                            let bit = x * layout.bits
                            let byte = Int(file[start + bit / 8])
                            let index = (byte >> (8 - layout.bits - bit % 8)) & ((1 << layout.bits) - 1)
                            out[target] = table[index * 3]
                            out[target + 1] = table[index * 3 + 1]
                            out[target + 2] = table[index * 3 + 2]
                        } else {
                            let at = start + x * layout.bits / 8
                            var pixel = UInt32(file[at]) | UInt32(file[at + 1]) << 8
                            if layout.bits >= 24 { pixel |= UInt32(file[at + 2]) << 16 }
                            if layout.bits == 32 { pixel |= UInt32(file[at + 3]) << 24 }
                            for band in 0..<bands { out[target + band] = channels[band].value(of: pixel) }
                        }
                        target += bands
                    }
                }
            }
        }
    }

    /// The palette indices of an RLE8 or RLE4 bitmap in file order (bottom row first unless top
    /// down), as Pillow's decoder reads them: runs clipped at the row's end, absolute runs aligned
    /// to an even offset in the file, a delta skipping pixels (left at index 0), and whether the
    /// codes filled every pixel (a file cut short is shown as far as it goes).
    static func runs(_ bytes: [UInt8], _ layout: Layout) -> (indices: [UInt8], complete: Bool) {
        let width = layout.width
        let total = width * layout.height
        let nibbles = layout.compression == 2
        var indices = [UInt8](repeating: 0, count: total)
        var length = 0
        var column = 0
        var position = layout.pixelOffset
        var ended = false
        while length < total, position + 1 < bytes.count {
            let count = Int(bytes[position])
            let value = bytes[position + 1]
            position += 2
            if count > 0 {
                let run = column + count > width ? max(0, width - column) : count
                for index in 0..<min(run, total - length) {
                    indices[length + index] = nibbles ? (index % 2 == 0 ? value >> 4 : value & 0x0F) : value
                }
                length += min(run, total - length)
                column += run
            } else if value == 0 {
                if length % width != 0 { length = min(total, length + width - length % width) }
                column = 0
            } else if value == 1 {
                ended = true
                break
            } else if value == 2 {
                guard position + 1 < bytes.count else { break }
                let (right, up) = (Int(bytes[position]), Int(bytes[position + 1]))
                position += 2
                length += min(total - length, right + up * width)
                column = length % width
            } else {
                let wanted = min(total - length, Int(value))
                let byteCount = nibbles ? (wanted + 1) / 2 : wanted
                let available = min(byteCount, bytes.count - position)
                for index in 0..<available {
                    let byte = bytes[position + index]
                    if nibbles {
                        indices[length] = byte >> 4
                        length += 1
                        if index * 2 + 1 < wanted {
                            indices[length] = byte & 0x0F
                            length += 1
                        }
                    } else {
                        indices[length] = byte
                        length += 1
                    }
                }
                position += available
                if available < byteCount || length == total { break }
                column += Int(value)
                if position % 2 != 0 { position += 1 }
            }
        }
        return (indices, ended || length == total)
    }

    /// One colour's mask in a 16, 24 or 32-bit pixel, its value widened (or narrowed) to 8 bits.
    struct Channel {
        var mask: UInt32
        var shift: UInt32
        var largest: UInt32

        init(_ mask: UInt32) {
            self.mask = mask
            shift = mask == 0 ? 0 : UInt32(mask.trailingZeroBitCount)
            largest = mask >> shift
        }

        func value(of pixel: UInt32) -> UInt8 {
            guard largest > 0 else { return 0 }
            return UInt8(UInt64((pixel & mask) >> shift) * 255 / UInt64(largest))
        }
    }

    static func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }

    static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
}
