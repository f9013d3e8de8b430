import AlbumKitCore
import AlbumKitPreviews
import Foundation

extension Bench {
    /// 16. Thumbnails (256 pixels, as the libraries make them: inspect, look for a stored preview,
    /// decode with libvips) of 24-megapixel JPEGs without a stored preview vs `vipsthumbnail -s 256`
    /// of the same files in the same run (one process over the list, so its start is shared), and of
    /// JPEGs whose stored preview is big enough, on two threads.
    func previews() throws -> ScenarioResult {
        var result = ScenarioResult(id: "previews", title: "Thumbnails: libvips through AlbumKit vs vipsthumbnail")
        guard Shell.has("vipsthumbnail") else { throw BenchFailure("vipsthumbnail is not installed (libvips-tools)") }
        guard Shell.has("convert") else { throw BenchFailure("ImageMagick's convert is not installed") }
        let folder = scratch.appendingPathComponent("previews")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let count = size(6, large: 20)
        let rounds = max(10, options.rounds)

        // One camera-sized picture (noise compresses as a photo does: ~10 MB at quality 90), then
        // copies made different by a comment; none stores a thumbnail.
        Table.progress("making \(count) 24-megapixel JPEGs")
        let first = folder.appendingPathComponent("photo-0.jpg")
        try Shell.run(
            "convert",
            [
                "-size", "6000x4000", "gradient:#3a6ea5-#f2c14e", "-attenuate", "0.4", "+noise", "Gaussian",
                "-strip", "-quality", "90", first.path,
            ])
        var photos = [first]
        for index in 1..<count {
            let copy = folder.appendingPathComponent("photo-\(index).jpg")
            try Shell.run("convert", [first.path, "-comment", "copy \(index)", "-quality", "90", copy.path])
            photos.append(copy)
        }
        // The same pictures storing a 384 × 256 EXIF thumbnail (big enough for 256).
        var withPreview: [URL] = []
        if Shell.has("exiftool") {
            let small = folder.appendingPathComponent("small.jpg")
            try Shell.run("convert", [first.path, "-resize", "384x256", "-quality", "85", small.path])
            for (index, photo) in photos.enumerated() {
                let copy = folder.appendingPathComponent("stored-\(index).jpg")
                try FileManager.default.copyItem(at: photo, to: copy)
                try Shell.run("exiftool", ["-q", "-overwrite_original", "-ThumbnailImage<=" + small.path, copy.path])
                withPreview.append(copy)
            }
        }
        let renderer = try PreviewRenderer.load()
        result.parameters = [
            "files": "\(count)", "rounds": "\(rounds)", "libvips": renderer.decoderVersion,
            "fileBytes": "\((try? FileManager.default.attributesOfItem(atPath: first.path)[.size] as? Int) ?? 0)",
        ]

        @Sendable func thumbnail(_ file: URL) throws -> RenderedPreview {
            let (descriptor, size) = try FileSystem.openForReading(file.path)
            defer { FileSystem.close(descriptor) }
            guard
                let made = try PreviewPipeline.render(
                    FileByteSource(file: descriptor, size: size), maxPixelSize: 256, file: file.path)
            else { throw BenchFailure("\(file.path) gave no thumbnail") }
            return made
        }

        // Paired rounds, alternating which goes first; the page cache is warm for both.
        let output = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let times = try Rounds.run(
            rounds, flushing: false,
            [
                { _ in try Statistics.time { for photo in photos { _ = try thumbnail(photo) } } },
                { _ in
                    try Statistics.time {
                        try Shell.run(
                            "vipsthumbnail", ["-s", "256", "-o", output.path + "/%s.jpg"] + photos.map(\.path))
                    }
                },
            ])
        let (ours, theirs) = (times[0], times[1])
        result.add("24 MP JPEG, no stored preview: AlbumKit", Double(count) / Statistics.median(ours), "files/s")
        result.add("24 MP JPEG: vipsthumbnail -s 256", Double(count) / Statistics.median(theirs), "files/s")
        result.paired(
            "24 MP JPEG thumbnail time: AlbumKit / vipsthumbnail -s 256", ours: ours, baseline: theirs, faster: false,
            goal: .atMost(1.0))

        if withPreview.isEmpty {
            result.notes.append("exiftool is not installed: the stored-preview row did not run")
        } else {
            // Two threads, as on the two cores; each takes every other file of a long list.
            let passes = 40
            var rates: [Double] = []
            for _ in 0..<rounds {
                let list = Array(repeating: withPreview, count: passes).flatMap { $0 }
                let failures = Locked(0)
                let seconds = Statistics.time {
                    DispatchQueue.concurrentPerform(iterations: 2) { lane in
                        for index in stride(from: lane, to: list.count, by: 2) {
                            guard let made = try? thumbnail(list[index]), made.longestSide == 256 else {
                                failures.withLock { $0 += 1 }
                                continue
                            }
                        }
                    }
                }
                guard failures.withLock({ $0 }) == 0 else { throw BenchFailure("a stored-preview thumbnail failed") }
                rates.append(Double(list.count) / seconds)
            }
            result.measured(
                "24 MP JPEG with a stored 384 × 256 preview, 2 threads", rates, unit: "files/s", goal: .atLeast(100))
        }
        result.notes.append(
            "AlbumKit's row is the libraries' own path (PreviewPipeline: inspect, stored previews, libvips with "
                + "shrink-on-load, JPEG q82); vipsthumbnail runs once over the list per round")
        return result
    }
}
