/// Checks a Windows/OS2 bitmap's headers and that its pixel data lies inside the file (a wrong
/// declared file size is only a warning, as decoders ignore it).
struct BMPParser {
    let reader: ByteReader

    func parse() throws(MediaInspectionError) -> MediaMetadata {
        var metadata = MediaMetadata(format: .bmp)
        let file = try reader.require(at: 0, count: 18, what: "BMP header")
        let declaredSize = UInt64(file.u32(2, bigEndian: false))
        let pixelOffset = UInt64(file.u32(10, bigEndian: false))
        let dibSize = Int(file.u32(14, bigEndian: false))
        let dib = try reader.require(at: 14, count: dibSize, what: "BMP info header")
        let width: Int64
        let height: Int64
        let bitsPerPixel: UInt16
        let compression: UInt32
        let imageSize: UInt32
        if dibSize == 12 {
            width = Int64(dib.u16(4, bigEndian: false))
            height = Int64(dib.u16(6, bigEndian: false))
            bitsPerPixel = dib.u16(10, bigEndian: false)
            compression = 0
            imageSize = 0
        } else {
            width = Int64(Int32(bitPattern: dib.u32(4, bigEndian: false)))
            height = Int64(Int32(bitPattern: dib.u32(8, bigEndian: false)))
            bitsPerPixel = dib.u16(14, bigEndian: false)
            compression = dib.u32(16, bigEndian: false)
            imageSize = dib.u32(20, bigEndian: false)
        }
        guard width > 0, height != 0, height != Int64(Int32.min) else {
            throw MediaInspectionError(.corrupt, "BMP header has an invalid size \(width)×\(height)")
        }
        guard
            [1, 2, 4, 8, 16, 24, 32, 64].contains(bitsPerPixel) || (bitsPerPixel == 0 && [4, 5].contains(compression))
        else {
            throw MediaInspectionError(.corrupt, "BMP header has an invalid bit depth \(bitsPerPixel)")
        }
        guard pixelOffset >= 14 + UInt64(dibSize), pixelOffset <= reader.size else {
            throw MediaInspectionError(.corrupt, "BMP pixel data offset \(pixelOffset) lies outside the file")
        }
        let rows = UInt64(height.magnitude)
        var needed: UInt64 = 0
        if [0, 3, 6].contains(compression) {
            let stride = (UInt64(width) * UInt64(bitsPerPixel) + 31) / 32 * 4
            let (total, overflow) = stride.multipliedReportingOverflow(by: rows)
            needed = overflow ? UInt64.max : total
        } else {
            needed = UInt64(imageSize)
        }
        guard reader.contains(pixelOffset, needed) else {
            throw MediaInspectionError(
                .corrupt, "BMP pixel data at offset \(pixelOffset) runs past the end of the file")
        }
        if declaredSize > reader.size {
            // Decoders ignore the declared size when the pixels are all there (ffmpeg: "trying to decode anyway").
            reader.warn("BMP header says the file has \(declaredSize) bytes; it has \(reader.size), with every pixel")
        }
        metadata.width = Int(width)
        metadata.height = Int(rows)
        return metadata
    }
}
