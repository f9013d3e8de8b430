/// The picture size written in a video elementary stream's sequence header: MPEG-1/2 sequence
/// headers, H.264 and HEVC sequence parameter sets. Only these headers are parsed; no picture is decoded.
enum VideoSequenceHeader {
    /// Codecs whose sequence headers carry the picture size.
    enum Codec: Sendable {
        case mpegVideo, h264, hevc
    }

    /// The displayed (cropped) size from the first sequence header in `stream`, or `nil` when none
    /// is there or it cannot be read.
    static func size(in stream: [UInt8], codec: Codec) -> (width: Int, height: Int)? {
        var i = 0
        while let start = nextStartCode(in: stream, from: i) {
            let unit = start + 3
            guard unit < stream.count else { return nil }
            let end = nextStartCode(in: stream, from: unit) ?? stream.count
            let found: (Int, Int)? =
                switch codec {
                case .mpegVideo: stream[unit] == 0xB3 ? mpegSequence(Array(stream[unit + 1..<end])) : nil
                case .h264: stream[unit] & 0x1F == 7 ? h264(rbsp(stream[unit + 1..<end])) : nil
                case .hevc:
                    (stream[unit] >> 1) & 0x3F == 33 && end > unit + 2 ? hevc(rbsp(stream[unit + 2..<end])) : nil
                }
            if let found, (1...65_536).contains(found.0), (1...65_536).contains(found.1) { return found }
            i = unit
        }
        return nil
    }

    /// The offset of the next `00 00 01` at or after `from`.
    private static func nextStartCode(in bytes: [UInt8], from: Int) -> Int? {
        var i = max(0, from)
        while i + 2 < bytes.count {
            if bytes[i + 2] > 1 {
                i += 3
            } else if bytes[i] == 0, bytes[i + 1] == 0, bytes[i + 2] == 1 {
                return i
            } else {
                i += 1
            }
        }
        return nil
    }

    /// The payload of a NAL unit without its emulation-prevention bytes (`00 00 03` → `00 00`).
    private static func rbsp(_ nal: ArraySlice<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(min(nal.count, 256))
        var zeros = 0
        for byte in nal.prefix(4096) {
            if zeros >= 2, byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            result.append(byte)
        }
        return result
    }

    /// MPEG-1/2 `sequence_header`: 12-bit horizontal and vertical sizes.
    private static func mpegSequence(_ bytes: [UInt8]) -> (Int, Int)? {
        guard bytes.count >= 3 else { return nil }
        let width = Int(bytes[0]) << 4 | Int(bytes[1]) >> 4
        let height = (Int(bytes[1]) & 0x0F) << 8 | Int(bytes[2])
        return (width, height)
    }

    /// H.264 `seq_parameter_set_data` (ITU-T H.264 7.3.2.1.1): macroblock counts minus cropping.
    private static func h264(_ bytes: [UInt8]) -> (Int, Int)? {
        var r = BitReader(bytes)
        guard let profile = r.bits(8), r.skip(16) != nil, r.unsignedGolomb() != nil else { return nil }
        var chromaFormat: UInt32 = 1
        var separatePlanes = false
        if [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].contains(profile) {
            guard let format = r.unsignedGolomb(), format <= 3 else { return nil }
            chromaFormat = format
            if format == 3 { separatePlanes = r.flag() ?? false }
            guard r.unsignedGolomb() != nil, r.unsignedGolomb() != nil, r.skip(1) != nil,
                let hasScaling = r.flag()
            else { return nil }
            if hasScaling {
                for list in 0..<(chromaFormat == 3 ? 12 : 8) {
                    guard let present = r.flag() else { return nil }
                    if present, skipScalingList(&r, size: list < 6 ? 16 : 64) == nil { return nil }
                }
            }
        }
        guard r.unsignedGolomb() != nil, let orderType = r.unsignedGolomb() else { return nil }
        if orderType == 0 {
            guard r.unsignedGolomb() != nil else { return nil }
        } else if orderType == 1 {
            guard r.skip(1) != nil, r.signedGolomb() != nil, r.signedGolomb() != nil,
                let cycle = r.unsignedGolomb(), cycle <= 255
            else { return nil }
            for _ in 0..<cycle where r.signedGolomb() == nil { return nil }
        }
        guard r.unsignedGolomb() != nil, r.skip(1) != nil, let widthInMacroblocks = r.unsignedGolomb(),
            let heightInMapUnits = r.unsignedGolomb(), let framesOnly = r.flag()
        else { return nil }
        if !framesOnly { guard r.skip(1) != nil else { return nil } }
        guard r.skip(1) != nil, let cropped = r.flag() else { return nil }
        var crop: (left: Int, right: Int, top: Int, bottom: Int) = (0, 0, 0, 0)
        if cropped {
            guard let left = r.unsignedGolomb(), let right = r.unsignedGolomb(), let top = r.unsignedGolomb(),
                let bottom = r.unsignedGolomb()
            else { return nil }
            crop = (Int(left), Int(right), Int(top), Int(bottom))
        }
        let arrayType = separatePlanes ? 0 : chromaFormat
        let unitX = arrayType == 0 || arrayType == 3 ? 1 : 2
        let unitY = (arrayType == 1 ? 2 : 1) * (framesOnly ? 1 : 2)
        let width = (Int(widthInMacroblocks) + 1) * 16 - unitX * (crop.left + crop.right)
        let height = (Int(heightInMapUnits) + 1) * 16 * (framesOnly ? 1 : 2) - unitY * (crop.top + crop.bottom)
        return (width, height)
    }

    private static func skipScalingList(_ r: inout BitReader, size: Int) -> Void? {
        var last = 8
        var next = 8
        for _ in 0..<size {
            if next != 0 {
                guard let delta = r.signedGolomb() else { return nil }
                next = ((last + Int(delta)) % 256 + 256) % 256
            }
            if next != 0 { last = next }
        }
        return ()
    }

    /// HEVC `seq_parameter_set_rbsp` (ITU-T H.265 7.3.2.2): luma sample counts minus the conformance window.
    private static func hevc(_ bytes: [UInt8]) -> (Int, Int)? {
        var r = BitReader(bytes)
        guard r.skip(4) != nil, let subLayers = r.bits(3), r.skip(1) != nil else { return nil }
        // profile_tier_level: 88 bits of general profile, 8 of level, then per sub-layer flags.
        guard r.skip(96) != nil else { return nil }
        var profilePresent: [Bool] = []
        var levelPresent: [Bool] = []
        for _ in 0..<subLayers {
            guard let profile = r.flag(), let level = r.flag() else { return nil }
            profilePresent.append(profile)
            levelPresent.append(level)
        }
        if subLayers > 0 { guard r.skip(2 * (8 - Int(subLayers))) != nil else { return nil } }
        for layer in 0..<Int(subLayers) {
            if profilePresent[layer] { guard r.skip(88) != nil else { return nil } }
            if levelPresent[layer] { guard r.skip(8) != nil else { return nil } }
        }
        guard r.unsignedGolomb() != nil, let chromaFormat = r.unsignedGolomb(), chromaFormat <= 3 else { return nil }
        var separatePlanes = false
        if chromaFormat == 3 { separatePlanes = r.flag() ?? false }
        guard let width = r.unsignedGolomb(), let height = r.unsignedGolomb(), let windowed = r.flag() else {
            return nil
        }
        var crop = (left: 0, right: 0, top: 0, bottom: 0)
        if windowed {
            guard let left = r.unsignedGolomb(), let right = r.unsignedGolomb(), let top = r.unsignedGolomb(),
                let bottom = r.unsignedGolomb()
            else { return nil }
            crop = (Int(left), Int(right), Int(top), Int(bottom))
        }
        let unitX = !separatePlanes && (chromaFormat == 1 || chromaFormat == 2) ? 2 : 1
        let unitY = !separatePlanes && chromaFormat == 1 ? 2 : 1
        return (Int(width) - unitX * (crop.left + crop.right), Int(height) - unitY * (crop.top + crop.bottom))
    }
}
