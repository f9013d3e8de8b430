#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(ucrt)
    import ucrt
#endif

/// Walks the segments of a JPEG up to its first scan, reads the frame size, the EXIF block, the
/// XMP packet and the IPTC record (APP13), and checks that the image ends with an end-of-image marker.
///
/// Reads the headers and the last two bytes; only when the file does not end with EOI (a trailer
/// after the image, or a cut) does it scan the entropy-coded data for the marker.
struct JPEGParser {
    static let maxSegments = 10_000
    /// The most bytes skipped before one marker (files in the wild have a few).
    static let maxStrayBytes: UInt64 = 1 << 20
    let reader: ByteReader

    func parse() throws(MediaInspectionError) -> MediaMetadata {
        var metadata = MediaMetadata(format: .jpeg)
        var exif: EXIFInfo?
        var xmp: XMPPacket?
        var iptc: IPTCRecord?
        var frame: (width: Int, height: Int)?
        var offset: UInt64 = 2
        for _ in 0..<Self.maxSegments {
            let found = try nextMarker(from: offset)
            let marker = found.marker
            let markerOffset = found.end
            if found.skipped > 0 {
                // libjpeg skips these too ("extraneous bytes before marker"), and so does every viewer.
                reader.warn("JPEG has \(found.skipped) stray bytes before the marker at offset \(found.offset)")
            }
            offset = found.offset
            switch marker {
            case 0xD8:
                throw MediaInspectionError(.corrupt, "JPEG has a second start-of-image marker at offset \(offset)")
            case 0xD9:
                throw MediaInspectionError(.corrupt, "JPEG ends (EOI at offset \(offset)) before its image data")
            case 0x01, 0xD0...0xD7:
                offset = markerOffset
                continue
            default:
                break
            }
            let lengthBytes = try reader.require(
                at: markerOffset, count: 2, what: "JPEG segment 0x\(hex(marker)) header")
            let length = UInt64(lengthBytes.u16(0))
            guard length >= 2 else {
                throw MediaInspectionError(.corrupt, "JPEG segment at offset \(offset) has an invalid length \(length)")
            }
            guard reader.contains(markerOffset, length) else {
                throw .cutShort(
                    "JPEG segment at offset \(offset) runs past the end of the file", present: reader.size,
                    expected: markerOffset + length)
            }
            let payload = markerOffset + 2
            let payloadLength = Int(length) - 2
            switch marker {
            case 0xE1 where (exif == nil || xmp == nil) && payloadLength > 14:
                let data = try reader.require(at: payload, count: payloadLength, what: "JPEG APP1 segment")
                if exif == nil, data.starts(with: Array("Exif\0".utf8), at: 0) {
                    var tiff = TIFFReader(ByteReader(BufferByteSource(bytes: Array(data[6...]))), strict: false)
                    // EXIF details are extras: a damaged block leaves them out (the image itself is checked).
                    exif = try? tiff.read()
                } else if xmp == nil, data.starts(with: XMPPacket.jpegSignature, at: 0) {
                    xmp = XMPPacket(Array(data[XMPPacket.jpegSignature.count...]))
                }
            case 0xED where iptc == nil && payloadLength > IPTCRecord.photoshopSignature.count:
                let data = try reader.require(at: payload, count: payloadLength, what: "JPEG APP13 segment")
                if data.starts(with: IPTCRecord.photoshopSignature, at: 0) {
                    iptc = IPTCRecord(imageResources: Array(data[IPTCRecord.photoshopSignature.count...]))
                }
            case let sofMarker where frame == nil && Self.isStartOfFrame(sofMarker):
                let sof = try reader.require(at: payload, count: min(payloadLength, 6), what: "JPEG frame header")
                guard sof.count == 6 else {
                    throw MediaInspectionError(.corrupt, "JPEG frame header at offset \(offset) is too short")
                }
                frame = (Int(sof.u16(3)), Int(sof.u16(1)))
            case 0xDA:
                guard let frame else {
                    throw MediaInspectionError(.corrupt, "JPEG has no frame header before its image data")
                }
                try findEndOfImage(after: payload + UInt64(payloadLength))
                let orientation = exif?.orientation
                if exif != nil || xmp != nil || iptc != nil {
                    var info = exif ?? EXIFInfo()
                    info.merge(xmp)
                    info.merge(iptc)
                    info.apply(to: &metadata)
                }
                metadata.setSize(
                    width: frame.width > 0 ? frame.width : nil, height: frame.height > 0 ? frame.height : nil,
                    orientation: orientation)
                return metadata
            default:
                break
            }
            offset = markerOffset + length
        }
        throw MediaInspectionError(.corrupt, "JPEG has more than \(Self.maxSegments) segments before its image data")
    }

    /// The next marker at or after `start`: where its `FF` is, the marker byte, where its segment
    /// starts, and how many bytes before it are not a marker (`FF 00` included), as libjpeg skips them.
    private func nextMarker(
        from start: UInt64
    ) throws(MediaInspectionError) -> (offset: UInt64, marker: UInt8, end: UInt64, skipped: UInt64) {
        var buffer: [UInt8] = []
        var bufferStart = start
        // A marker is nearly always where the segment before it ends: the first read is small
        // (served from the reader's window, no system call), each further one twice as large, up
        // to 64 KB (stray bytes, or a scan for the end of the image).
        var chunk: UInt64 = 1 << 10
        // The byte at `offset`; `nil` past the end of the file.
        func byte(_ offset: UInt64) throws(MediaInspectionError) -> UInt8? {
            if offset < bufferStart || offset >= bufferStart + UInt64(buffer.count) {
                guard offset < reader.size else { return nil }
                buffer = try reader.bytes(at: offset, count: Int(min(chunk, reader.size - offset))) ?? []
                chunk = min(chunk * 4, 64 << 10)
                bufferStart = offset
                guard !buffer.isEmpty else { return nil }
            }
            return buffer[Int(offset - bufferStart)]
        }
        var position = start
        while true {
            guard position - start <= Self.maxStrayBytes else {
                throw MediaInspectionError(
                    .corrupt, "JPEG has more than \(Self.maxStrayBytes >> 20) MB without a marker at offset \(start)")
            }
            guard let first = try byte(position) else {
                throw MediaInspectionError(.corrupt, "JPEG ends at offset \(position) before its image data")
            }
            if first != 0xFF {
                // Jump to the next FF in the buffer (or past the buffer when it holds none).
                let index = Int(position - bufferStart)
                let hit = buffer.withUnsafeBufferPointer { bytes -> Int? in
                    guard let base = bytes.baseAddress, let found = memchr(base + index, 0xFF, bytes.count - index)
                    else { return nil }
                    return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                }
                position = bufferStart + UInt64(hit ?? buffer.count)
                continue
            }
            // Markers may be preceded by any number of 0xFF fill bytes.
            var markerOffset = position + 1
            var marker: UInt8 = 0xFF
            while marker == 0xFF {
                guard let next = try byte(markerOffset) else {
                    throw MediaInspectionError(.corrupt, "JPEG ends at offset \(markerOffset) before its image data")
                }
                marker = next
                markerOffset += 1
                if markerOffset - position > 4096 {
                    throw MediaInspectionError(.corrupt, "JPEG has a run of fill bytes at offset \(position)")
                }
            }
            if marker == 0x00 {
                position = markerOffset
                continue
            }
            return (position, marker, markerOffset, position - start)
        }
    }

    /// The image must end with EOI: the last two bytes, or (with a trailer) an EOI after the scan.
    private func findEndOfImage(after scanStart: UInt64) throws(MediaInspectionError) {
        if reader.size >= scanStart + 2, let tail = try reader.bytes(at: reader.size - 2, count: 2),
            tail == [0xFF, 0xD9]
        {
            return
        }
        let chunk = 1 << 20
        var offset = scanStart
        var previousWasFill = false
        while offset < reader.size {
            let count = Int(min(UInt64(chunk), reader.size - offset))
            guard let bytes = try reader.bytes(at: offset, count: count), !bytes.isEmpty else { break }
            if previousWasFill && bytes[0] == 0xD9 { return }
            if Self.containsEndOfImage(bytes) { return }
            previousWasFill = bytes[bytes.count - 1] == 0xFF
            offset += UInt64(bytes.count)
        }
        throw .cutShort(
            "JPEG ends before the image does (no end-of-image marker)", present: reader.size, expected: nil)
    }

    /// Whether `bytes` hold the end-of-image marker `FF D9`, found by `memchr` jumps from one `FF`
    /// to the next (in entropy-coded data about one byte in 256) instead of a byte-by-byte loop.
    static func containsEndOfImage(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, buffer.count >= 2 else { return false }
            var position = 0
            // Searching all but the last byte leaves room to read the byte after every hit.
            while position < buffer.count - 1,
                let hit = memchr(base + position, 0xFF, buffer.count - 1 - position)
            {
                let index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if base[index + 1] == 0xD9 { return true }
                position = index + 1
            }
            return false
        }
    }

    /// SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    static func isStartOfFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}
