import AlbumTestSupport
import Foundation
import Testing

@testable import AlbumKitMedia

/// Each kind of damage, generated here from files ffmpeg and libtiff write, decided the way the
/// reference decoders decide it (Docs/media.md, "Damage: tolerated or refused"): what libjpeg,
/// giflib/ffmpeg, libtiff and ffmpeg's BMP decoder read is saved with a warning; what they refuse,
/// or read only by reporting missing image data, is `.corrupt`.
@Suite struct DamageOracleTests {
    /// The original files the damage is done to (64×48 test pattern; the GIF has 3 frames), made
    /// once by ffmpeg.
    static let made = (
        jpeg: Result { try Decoders.ffmpeg("base.jpg", ["-frames:v", "1"]) },
        gif: Result { try Decoders.ffmpeg("base.gif", ["-frames:v", "3"]) },
        bmp: Result { try Decoders.ffmpeg("base.bmp", ["-frames:v", "1"]) },
        png: Result { try Decoders.ffmpeg("base.png", ["-frames:v", "1"]) },
        tiff: Result { try Decoders.ffmpeg("base.tif", ["-frames:v", "1", "-compression_algo", "raw"]) }
    )
    // Each test that uses one asks for ffmpeg itself: skipped (or failed in CI) on its own, not by
    // an error the first test's made file kept.
    static var jpeg: Result<[UInt8], any Error> {
        get throws {
            try ExternalTool.require("ffmpeg")
            return made.jpeg
        }
    }
    static var gif: Result<[UInt8], any Error> {
        get throws {
            try ExternalTool.require("ffmpeg")
            return made.gif
        }
    }
    static var bmp: Result<[UInt8], any Error> {
        get throws {
            try ExternalTool.require("ffmpeg")
            return made.bmp
        }
    }
    static var png: Result<[UInt8], any Error> {
        get throws {
            try ExternalTool.require("ffmpeg")
            return made.png
        }
    }
    static var tiff: Result<[UInt8], any Error> {
        get throws {
            try ExternalTool.require("ffmpeg")
            return made.tiff
        }
    }

    // MARK: JPEG (libjpeg's djpeg, exiftool)

    /// djpeg's verdict: it decodes (status 0, or 2 for a warning) without reporting lost data.
    static func libjpegReadsWhole(_ path: String) throws -> (reads: Bool, warning: String) {
        let run = try Decoders.run("djpeg", ["-outfile", "/dev/null", path])
        let whole = run.ran && (run.status == 0 || run.status == 2) && !run.errors.contains("Premature end")
        return (whole, run.errors)
    }

    @Test(arguments: ["stray bytes", "FF 00 after SOI"])
    func strayBytesBetweenSegmentsAreTolerated(_ kind: String) throws {
        // Given a JPEG with bytes that are no marker between two segments
        var bytes = try Self.jpeg.get()
        if kind == "stray bytes" {
            let table = try #require(bytes.firstIndex(of: [0xFF, 0xDB]))
            bytes.insert(contentsOf: Array("0 garbage".utf8), at: table)
        } else {
            bytes.replaceSubrange(2..<4, with: [0xFF, 0x00])  // APP0's marker broken: its segment becomes stray bytes
        }
        let path = try Decoders.write(bytes, name: "stray.jpg")
        // Then libjpeg decodes it with a warning, exiftool reads it
        let libjpeg = try Self.libjpegReadsWhole(path)
        #expect(libjpeg.reads && libjpeg.warning.contains("extraneous bytes"), "\(libjpeg.warning)")
        let exif = try Decoders.exiftool(path)
        #expect(exif["File:ImageWidth"] as? Int == 64)
        // And AlbumKit saves it, recording the warning
        let metadata = try inspect(path: path).get()
        #expect(metadata.format == .jpeg && metadata.width == 64 && metadata.height == 48)
        #expect(metadata.warnings.count == 1 && metadata.warnings[0].contains("stray bytes"), "\(metadata.warnings)")
    }

    @Test(arguments: ["two SOI markers", "cut in half", "segment past the end", "no frame header", "last byte cut"])
    func jpegDamageLibjpegRefusesIsRefused(_ kind: String) throws {
        var bytes = try Self.jpeg.get()
        switch kind {
        case "two SOI markers": bytes.replaceSubrange(2..<4, with: [0xFF, 0xD8])
        case "cut in half": bytes.removeLast(bytes.count / 2)
        case "segment past the end": bytes.replaceSubrange(4..<6, with: [0xFF, 0xFF])
        case "no frame header": bytes[try #require(bytes.firstIndex(of: [0xFF, 0xC0])) + 1] = 0xEF
        default: bytes.removeLast()
        }
        let path = try Decoders.write(bytes, name: "broken.jpg")
        let libjpeg = try Self.libjpegReadsWhole(path)
        #expect(!libjpeg.reads, "libjpeg read it: \(libjpeg.warning)")
        let result = inspect(path: path)
        #expect(result.error?.kind == .corrupt, "\(result)")
    }

    // MARK: PNG (pngcheck, ffmpeg)

    @Test(arguments: ["bad CRC", "no IEND", "chunk past the end"])
    func pngDamagePngcheckRefusesIsRefused(_ kind: String) throws {
        var bytes = try Self.png.get()
        switch kind {
        case "bad CRC": bytes[16] ^= 1
        case "no IEND": bytes.removeLast(12)
        default: bytes.removeLast(40)
        }
        let path = try Decoders.write(bytes, name: "broken.png")
        #expect(try Decoders.run("pngcheck", ["-q", path]).status != 0)
        #expect(inspect(path: path).error?.kind == .corrupt)
    }

    @Test func pngWithDataAfterItsEndIsTolerated() throws {
        let path = try Decoders.write(try Self.png.get() + Array("a trailer".utf8), name: "trailer.png")
        // pngcheck and exiftool name the extra data; ffmpeg decodes the picture (libpng stops at IEND)
        #expect(try Decoders.run("pngcheck", [path]).output.contains("additional data after IEND"))
        #expect((try Decoders.exiftool(path)["ExifTool:Warning"] as? String)?.contains("IEND") == true)
        let ffmpeg = try Decoders.run(
            "ffmpeg", ["-v", "error", "-xerror", "-f", "image2", "-c:v", "png", "-i", path, "-f", "null", "-"])
        #expect(ffmpeg.status == 0, "\(ffmpeg.errors)")
        let metadata = try inspect(path: path).get()
        #expect(metadata.width == 64 && metadata.warnings.count == 1, "\(metadata.warnings)")
    }

    // MARK: GIF (ffmpeg, giflib's giftext)

    @Test(arguments: ["no trailer", "unknown block after the last image"])
    func gifEndingOddlyAfterWholeImagesIsTolerated(_ kind: String) throws {
        var bytes = try Self.gif.get()
        #expect(bytes.last == 0x3B)
        if kind == "no trailer" { bytes.removeLast() } else { bytes[bytes.count - 1] = 0x00 }
        let path = try Decoders.write(bytes, name: "odd.gif")
        // ffmpeg decodes all three frames (giflib alone stops at the missing trailer)
        #expect(try Decoders.framesDecoded(path) == 3)
        #expect(try Decoders.run("giftext", [path]).status != 0)
        let metadata = try inspect(path: path).get()
        #expect(metadata.format == .gif && metadata.width == 64 && metadata.isAnimated)
        #expect(metadata.warnings.count == 1, "\(metadata.warnings)")
    }

    @Test(arguments: ["cut in the image data", "no image", "unknown block before any image"])
    func gifWithoutWholeImagesIsRefused(_ kind: String) throws {
        var bytes = try Self.gif.get()
        let palette = bytes[10] & 0x80 != 0 ? 3 << (Int(bytes[10] & 7) + 1) : 0
        switch kind {
        case "cut in the image data": bytes.removeLast(bytes.count / 2)
        case "no image": bytes = Array(bytes[..<(13 + palette)]) + [0x3B]
        default: bytes = Array(bytes[..<(13 + palette)]) + [0x00] + Array(bytes[(13 + palette)...])
        }
        let path = try Decoders.write(bytes, name: "broken.gif")
        // giflib refuses the damaged ones (it reads an empty GIF, which has nothing to show)
        #expect(try Decoders.run("giftext", [path]).status != 0 || kind == "no image")
        #expect(try Decoders.framesDecoded(path) ?? 0 < 3)
        #expect(inspect(path: path).error?.kind == .corrupt)
    }

    // MARK: BMP (ffmpeg's decoder)

    @Test(arguments: [1, 1000])
    func bmpDeclaringMoreBytesThanItHasIsTolerated(extra: Int) throws {
        var bytes = try Self.bmp.get()
        bytes.replaceSubrange(2..<6, with: [UInt8].le32(bytes.count + extra))
        let path = try Decoders.write(bytes, name: "size.bmp")
        let run = try Decoders.run("ffmpeg", ["-v", "warning", "-xerror", "-i", path, "-f", "null", "-"])
        #expect(run.status == 0 && run.errors.contains("trying to decode anyway"), "\(run.errors)")
        let metadata = try inspect(path: path).get()
        #expect(metadata.width == 64 && metadata.height == 48 && metadata.warnings.count == 1)
    }

    @Test func bmpMissingPixelsIsRefused() throws {
        let path = try Decoders.write(Array(try Self.bmp.get().dropLast()), name: "cut.bmp")
        #expect(try !Decoders.ffmpegDecodes(path))
        #expect(inspect(path: path).error?.kind == .corrupt)
    }

    // MARK: TIFF (libtiff's tiffinfo -D reads every strip; tiffcp writes BigTIFF)

    /// tiffinfo -D: 0 when libtiff reads the directory and every strip.
    static func libtiffReads(_ path: String) throws -> Decoders.Run { try Decoders.run("tiffinfo", ["-D", path]) }

    /// `bytes` rewritten by `tiffcp` with `options` (libtiff's own writer).
    static func tiffcp(_ bytes: [UInt8], _ options: [String]) throws -> [UInt8] {
        let source = try Decoders.write(bytes, name: "source.tif")
        let target = source + ".out.tif"
        let run = try Decoders.run("tiffcp", options + [source, target])
        guard run.status == 0 else { throw Decoders.ToolFailed(tool: "tiffcp", run: run) }
        return Array(try Data(contentsOf: URL(fileURLWithPath: target)))
    }

    @Test(arguments: ["-L", "-B"])
    func bigTIFFIsATIFF(byteOrder: String) throws {
        let big = try Self.tiffcp(try Self.tiff.get(), ["-8", byteOrder])
        #expect(big[2] == 0x2B || big[3] == 0x2B)
        let path = try Decoders.write(big, name: "big.tif")
        #expect(try Self.libtiffReads(path).status == 0)
        let exif = try Decoders.exiftool(path)
        let metadata = try inspect(path: path).get()
        #expect(metadata.format == .tiff && metadata.warnings.isEmpty)
        #expect(
            metadata.width == exif["IFD0:ImageWidth"] as? Int && metadata.height == exif["IFD0:ImageHeight"] as? Int)
        #expect(metadata.width == 64)
        // A BigTIFF cut in its pixels is refused, as libtiff refuses it
        let cut = try Decoders.write(Array(big.dropLast(big.count / 3)), name: "big-cut.tif")
        #expect(try Self.libtiffReads(cut).status != 0)
        #expect(inspect(path: cut).error?.kind == .corrupt)
    }

    /// Sets the last value of strip-byte-count tag 0x0117 of IFD0 to itself plus `extra`.
    static func overstateLastStrip(_ bytes: inout [UInt8], by extra: Int) throws {
        let little = bytes[0] == 0x49
        let ifd = Int(bytes.u32(4, bigEndian: !little))
        for i in 0..<Int(bytes.u16(ifd, bigEndian: !little)) {
            let e = ifd + 2 + 12 * i
            guard bytes.u16(e, bigEndian: !little) == 0x0117 else { continue }
            let type = bytes.u16(e + 2, bigEndian: !little)
            let count = Int(bytes.u32(e + 4, bigEndian: !little))
            let size = type == 3 ? 2 : 4
            let at = (size * count <= 4 ? e + 8 : Int(bytes.u32(e + 8, bigEndian: !little))) + size * (count - 1)
            let old = size == 2 ? Int(bytes.u16(at, bigEndian: !little)) : Int(bytes.u32(at, bigEndian: !little))
            let new: [UInt8] = size == 2 ? .be16(old + extra) : .be32(old + extra)
            bytes.replaceSubrange(at..<at + size, with: little ? new.reversed() : new)
            return
        }
        Issue.record("no StripByteCounts")
    }

    @Test func singleUncompressedStripDeclaredTooLongIsTolerated() throws {
        var bytes = try Self.tiffcp(try Self.tiff.get(), ["-c", "none", "-r", "48"])
        try Self.overstateLastStrip(&bytes, by: 5000)
        let path = try Decoders.write(bytes, name: "one-strip.tif")
        let libtiff = try Self.libtiffReads(path)
        #expect(libtiff.status == 0 && libtiff.errors.contains("Bogus"), "\(libtiff.errors)")
        let metadata = try inspect(path: path).get()
        #expect(metadata.width == 64 && metadata.warnings.count == 1, "\(metadata.warnings)")
    }

    @Test(arguments: ["none", "lzw"])
    func stripsRunningPastTheEndAreRefused(compression: String) throws {
        // Several strips (libtiff recomputes no length then), or one compressed strip
        var bytes = try Self.tiffcp(
            try Self.tiff.get(), ["-c", compression, "-r", compression == "none" ? "16" : "48"])
        try Self.overstateLastStrip(&bytes, by: 5000)
        let path = try Decoders.write(bytes, name: "strips.tif")
        #expect(try Self.libtiffReads(path).status != 0)
        #expect(inspect(path: path).error?.kind == .corrupt)
    }

    @Test func tagValuePastTheEndIsTolerated() throws {
        // ffmpeg's TIFF has a Software tag (0x0131) longer than 4 bytes: point it past the end
        var bytes = try Self.tiff.get()
        let little = bytes[0] == 0x49
        let ifd = Int(bytes.u32(4, bigEndian: !little))
        let entry = try #require(
            (0..<Int(bytes.u16(ifd, bigEndian: !little))).map { ifd + 2 + 12 * $0 }
                .first { bytes.u16($0, bigEndian: !little) == 0x0131 })
        let past: [UInt8] = .be32(bytes.count - 2)
        bytes.replaceSubrange(entry + 8..<entry + 12, with: little ? past.reversed() : past)
        let path = try Decoders.write(bytes, name: "tag.tif")
        let libtiff = try Self.libtiffReads(path)
        #expect(libtiff.status == 0 && libtiff.errors.contains("ignored"), "\(libtiff.errors)")
        let metadata = try inspect(path: path).get()
        #expect(metadata.width == 64 && metadata.warnings.count == 1, "\(metadata.warnings)")
    }
}

extension Result {
    /// The failure, if any.
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
