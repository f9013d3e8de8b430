/// Reads a Fujifilm RAF raw file: its header, the embedded JPEG's EXIF block, the raw header's
/// size records and the raw data's own TIFF directory.
///
/// The header (`FUJIFILMCCD-RAW `, big-endian) names the camera (offset 28) and places three
/// parts: the JPEG preview (offset and length at 84), the raw header records (92) and the raw
/// data (100). The JPEG preview and the raw data must lie inside the file; the raw header's records
/// give the size (`0x111` cropped size, else `0x121` image size, else `0x100` full size, each
/// height then width), else the raw TIFF directory's Fuji IFD (`0xF000`: width `0xF001`, height
/// `0xF002`), else the preview's frame. Date, camera and orientation come from the preview's EXIF
/// block; make and model default to `FUJIFILM` and the header's camera name.
struct RAFParser {
    static let magic = Array("FUJIFILMCCD-RAW ".utf8)
    static let maxRecords = 256
    let reader: ByteReader

    private func corrupt(_ reason: String) -> MediaInspectionError {
        MediaInspectionError(.corrupt, "RAF \(reason)")
    }

    func parse() throws(MediaInspectionError) -> MediaMetadata {
        let header = try reader.require(at: 0, count: 108, what: "RAF header")
        let jpeg = (offset: UInt64(header.u32(84)), length: UInt64(header.u32(88)))
        let records = (offset: UInt64(header.u32(92)), length: UInt64(header.u32(96)))
        let raw = (offset: UInt64(header.u32(100)), length: UInt64(header.u32(104)))
        guard jpeg.length > 0, reader.contains(jpeg.offset, jpeg.length) else {
            throw corrupt("JPEG preview at offset \(jpeg.offset) runs past the end of the file")
        }
        guard raw.length > 0, reader.contains(raw.offset, raw.length) else {
            throw corrupt("raw data at offset \(raw.offset) (\(raw.length) bytes) runs past the end of the file")
        }
        var metadata = MediaMetadata(format: .raw)
        var exif = try previewEXIF(at: jpeg.offset, length: jpeg.length)
        var size = try recordSize(records)
        if size == nil { size = try rawTIFFSize(at: raw.offset) }
        if size == nil { size = try previewFrame(at: jpeg.offset, length: jpeg.length) }
        exif.make = exif.make ?? "FUJIFILM"
        exif.model = exif.model ?? header.cString(28..<60)
        exif.apply(to: &metadata)
        metadata.setSize(width: size?.width, height: size?.height, orientation: exif.orientation)
        return metadata
    }

    /// The EXIF block of the preview's first APP1 `Exif` segment (within its first 16 segments).
    private func previewEXIF(at start: UInt64, length: UInt64) throws(MediaInspectionError) -> EXIFInfo {
        guard try reader.bytes(at: start, count: 2) == [0xFF, 0xD8] else {
            reader.warn("RAF JPEG preview at offset \(start) does not start with a JPEG marker")
            return EXIFInfo()
        }
        let end = start + length
        var offset = start + 2
        for _ in 0..<16 {
            guard offset + 4 <= end, let segment = try reader.bytes(at: offset, count: 4), segment[0] == 0xFF else {
                break
            }
            let size = UInt64(segment.u16(2))
            if segment[1] == 0xE1, size > 8, offset + 2 + size <= end,
                try reader.bytes(at: offset + 4, count: 6) == Array("Exif\0\0".utf8)
            {
                var tiff = TIFFReader(reader, base: offset + 10, strict: false)
                // EXIF details are extras: a damaged block leaves them out (the image itself is checked).
                return (try? tiff.read()) ?? EXIFInfo()
            }
            if segment[1] == 0xDA || segment[1] == 0xD9 || size < 2 { break }
            offset += 2 + size
        }
        return EXIFInfo()
    }

    /// The size from the raw header's records (count, then tag, size and data each).
    private func recordSize(
        _ records: (offset: UInt64, length: UInt64)
    ) throws(MediaInspectionError) -> (width: Int, height: Int)? {
        guard records.length >= 4, reader.contains(records.offset, records.length) else { return nil }
        let data = try reader.require(
            at: records.offset, count: Int(min(records.length, 64 << 10)), what: "RAF raw header")
        var found: [UInt16: (width: Int, height: Int)] = [:]
        var i = 4
        for _ in 0..<min(Int(data.u32(0)), Self.maxRecords) {
            guard i + 4 <= data.count else { break }
            let tag = data.u16(i)
            let size = Int(data.u16(i + 2))
            i += 4
            guard i + size <= data.count else { break }
            if [0x100, 0x111, 0x121].contains(tag), size >= 4 {
                let height = Int(data.u16(i))
                let width = Int(data.u16(i + 2))
                if width > 0, height > 0 { found[tag] = (width, height) }
            }
            i += size
        }
        return found[0x111] ?? found[0x121] ?? found[0x100]
    }

    /// The size in the Fuji IFD of the TIFF directory that starts the raw data, when it has one.
    private func rawTIFFSize(at offset: UInt64) throws(MediaInspectionError) -> (width: Int, height: Int)? {
        guard let head = try reader.bytes(at: offset, count: 4),
            head == [0x4D, 0x4D, 0x00, 0x2A] || head == [0x49, 0x49, 0x2A, 0x00]
        else { return nil }
        var tiff = TIFFReader(reader, base: offset, strict: false)
        // The raw size is an extra: a damaged directory leaves it out.
        guard let info = try? tiff.read(), let width = info.rawWidth, let height = info.rawHeight, width > 0,
            height > 0
        else { return nil }
        return (width, height)
    }

    /// The preview's frame size (its first SOF segment).
    private func previewFrame(
        at start: UInt64, length: UInt64
    ) throws(MediaInspectionError) -> (width: Int, height: Int)? {
        let end = start + length
        var offset = start + 2
        for _ in 0..<64 {
            guard offset + 9 <= end, let segment = try reader.bytes(at: offset, count: 9), segment[0] == 0xFF else {
                return nil
            }
            if JPEGParser.isStartOfFrame(segment[1]) {
                let width = Int(segment.u16(7))
                let height = Int(segment.u16(5))
                return width > 0 && height > 0 ? (width, height) : nil
            }
            if segment[1] == 0xDA { return nil }
            offset += 2 + UInt64(segment.u16(2))
        }
        return nil
    }
}
