/// Walks the blocks of a GIF (extensions and images with their sub-blocks) to the trailer.
///
/// After at least one whole image, a missing trailer or an unknown block ends the walk with a
/// warning, as browsers and ffmpeg show such files; before the first image they make it corrupt.
struct GIFParser {
    let reader: ByteReader

    func parse() throws(MediaInspectionError) -> MediaMetadata {
        var metadata = MediaMetadata(format: .gif)
        let screen = try reader.require(at: 6, count: 7, what: "GIF screen descriptor")
        metadata.width = Int(screen.u16(0, bigEndian: false))
        metadata.height = Int(screen.u16(2, bigEndian: false))
        var offset: UInt64 = 13
        if screen[4] & 0x80 != 0 { offset += 3 << (UInt64(screen[4] & 7) + 1) }
        var images = 0
        while true {
            guard let introducer = try reader.byte(at: offset) else {
                guard images > 0 else {
                    throw MediaInspectionError(.corrupt, "GIF is cut short at offset \(offset) before its first image")
                }
                // Browsers and ffmpeg show every whole image of a GIF that ends without its trailer.
                reader.warn("GIF has no trailer: it ends at offset \(offset) after its last whole image")
                return finish(metadata, images: images)
            }
            switch introducer {
            case 0x3B:
                guard images > 0 else { throw MediaInspectionError(.corrupt, "GIF has no image") }
                return finish(metadata, images: images)
            case 0x21:
                offset = try skipSubBlocks(from: offset + 2)
            case 0x2C:
                let descriptor = try reader.require(at: offset + 1, count: 9, what: "GIF image descriptor")
                offset += 10
                if descriptor[8] & 0x80 != 0 { offset += 3 << (UInt64(descriptor[8] & 7) + 1) }
                offset = try skipSubBlocks(from: offset + 1)  // after the LZW minimum code size
                images += 1
            default:
                guard images > 0 else {
                    throw MediaInspectionError(
                        .corrupt, "GIF has an unknown block 0x\(String(introducer, radix: 16)) at offset \(offset)")
                }
                // Browsers and ffmpeg stop there and show the images before it.
                reader.warn(
                    "GIF has an unknown block 0x\(String(introducer, radix: 16)) at offset \(offset); what follows is ignored"
                )
                return finish(metadata, images: images)
            }
        }
    }

    private func finish(_ metadata: MediaMetadata, images: Int) -> MediaMetadata {
        var metadata = metadata
        metadata.isAnimated = images > 1
        return metadata
    }

    /// Skips data sub-blocks up to and including the zero-length terminator.
    private func skipSubBlocks(from start: UInt64) throws(MediaInspectionError) -> UInt64 {
        var offset = start
        while true {
            guard let length = try reader.byte(at: offset) else {
                throw MediaInspectionError(.corrupt, "GIF block data is cut short at offset \(offset)")
            }
            offset += 1 + UInt64(length)
            if length == 0 { return offset }
        }
    }
}
