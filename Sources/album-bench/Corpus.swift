import Foundation

/// Generated test media: distinct, valid JPEGs of a chosen size.
///
/// A few noise images come from ImageMagick (noise does not compress, so the size is predictable);
/// each file is one of them with a unique JPEG comment segment (`FF FE`) after the start marker, so
/// every file has its own content, size and SHA-256 and still parses as a JPEG.
enum Corpus {
    /// Writes `count` JPEGs of about `kilobytes` KB into `directory` and returns their URLs.
    static func jpegs(count: Int, kilobytes: Int, in directory: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard Shell.has("convert") else { throw BenchFailure("ImageMagick `convert` is needed to make test JPEGs") }
        // Noise JPEG at quality 90 is about 0.71 bytes per pixel.
        let side = max(16, Int((Double(kilobytes * 1024) / 0.71).squareRoot()))
        var bases: [[UInt8]] = []
        for seed in 1...4 {
            let base = directory.appendingPathComponent(".base-\(seed).jpg")
            let made = try Shell.run(
                "convert",
                [
                    "-size", "\(side)x\(side)", "xc:gray", "-seed", "\(seed)", "+noise", "Random",
                    "-quality", "90", base.path,
                ])
            guard made.status == 0 else { throw BenchFailure("convert failed: \(made.stderr)") }
            bases.append(Array(try Data(contentsOf: base)))
            try FileManager.default.removeItem(at: base)
        }
        return try (0..<count).map { index in
            let url = directory.appendingPathComponent(String(format: "IMG_%05d.jpg", index))
            // The tag's length grows with the index, so sizes differ as camera files do (a folder
            // library compares sizes before hashing to find duplicates).
            let tag = "album-bench \(index) \(UUID().uuidString) " + String(repeating: "-", count: index / bases.count)
            try Data(uniqueJPEG(bases[index % bases.count], tag: tag)).write(to: url)
            return url
        }
    }

    /// `jpeg` with a comment segment holding `tag` inserted after the SOI marker.
    static func uniqueJPEG(_ jpeg: [UInt8], tag: String) -> [UInt8] {
        let text = Array(tag.utf8.prefix(60_000))
        let length = text.count + 2
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)]
        bytes += text
        bytes += jpeg.dropFirst(2)
        return bytes
    }

    /// Total size of `files` in bytes.
    static func byteCount(_ files: [URL]) -> Int64 {
        files.reduce(0) { total, url in
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
            return total + (size ?? 0)
        }
    }
}
