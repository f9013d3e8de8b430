import AlbumKitCore
import AlbumKitPreviews
import Foundation

extension Bench {
    /// 19. Videos' poster frames (256 pixels, as the libraries make them: FFmpeg's libraries in
    /// process, then libvips) of 1080p H.264 clips vs `ffmpeg -ss T -i FILE -frames:v 1 -vf scale`
    /// of the same files at the same time into the clip, one process a file (as a thumbnailer that
    /// calls ffmpeg runs it).
    func posterFrames() throws -> ScenarioResult {
        var result = ScenarioResult(id: "posters", title: "Video poster frames: AlbumKit vs ffmpeg -frames:v 1")
        guard Shell.has("ffmpeg") else { throw BenchFailure("ffmpeg is not installed") }
        let folder = scratch.appendingPathComponent("posters")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let count = size(6, large: 20)
        let rounds = max(10, options.rounds)
        let seconds = 20
        Table.progress("making \(count) 1080p clips of \(seconds) s")
        var clips: [URL] = []
        for index in 0..<count {
            let clip = folder.appendingPathComponent("clip-\(index).mp4")
            // Moving noise over a test picture compresses as filmed video does; a keyframe every 2 s.
            try Shell.run(
                "ffmpeg",
                [
                    "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                    "testsrc2=size=1920x1080:rate=30:duration=\(seconds),noise=alls=12:allf=t+u,hue=H=\(index)",
                    "-c:v", "libx264", "-preset", "veryfast", "-g", "60", "-pix_fmt", "yuv420p", clip.path,
                ])
            clips.append(clip)
        }
        let renderer = try PreviewRenderer.load()
        let versions = try PreviewRenderer.loadVideoDecoder()
        result.parameters = [
            "files": "\(count)", "rounds": "\(rounds)", "ffmpeg": versions, "libvips": renderer.decoderVersion,
            "clipSeconds": "\(seconds)",
            "fileBytes": "\((try? FileManager.default.attributesOfItem(atPath: clips[0].path)[.size] as? Int) ?? 0)",
        ]

        func poster(_ file: URL) throws {
            let (descriptor, size) = try FileSystem.openForReading(file.path)
            defer { FileSystem.close(descriptor) }
            guard
                let made = try PreviewPipeline.render(
                    FileByteSource(file: descriptor, size: size), maxPixelSize: 256, file: file.path),
                made.longestSide == 256
            else { throw BenchFailure("\(file.path) gave no 256-pixel poster frame") }
        }
        // The same moment as ours: a tenth of the clip (2 s of 20).
        let at = String(Double(seconds) * PreviewRenderer.posterFrameFraction)
        let output = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let times = try Rounds.run(
            rounds, flushing: false,
            [
                { _ in try Statistics.time { for clip in clips { try poster(clip) } } },
                { _ in
                    try Statistics.time {
                        for (index, clip) in clips.enumerated() {
                            try Shell.run(
                                "ffmpeg",
                                [
                                    "-loglevel", "error", "-y", "-ss", at, "-i", clip.path, "-frames:v", "1", "-vf",
                                    "scale=256:-2", output.appendingPathComponent("\(index).jpg").path,
                                ])
                        }
                    }
                },
            ])
        let (ours, theirs) = (times[0], times[1])
        result.add("1080p H.264 clip: AlbumKit poster frame", Double(count) / Statistics.median(ours), "files/s")
        result.add("1080p H.264 clip: ffmpeg -ss -frames:v 1", Double(count) / Statistics.median(theirs), "files/s")
        result.paired(
            "poster frame time: AlbumKit / ffmpeg -frames:v 1", ours: ours, baseline: theirs, faster: false,
            goal: .atMost(1.0))
        result.notes.append(
            "AlbumKit's row is the libraries' own path (PreviewPipeline: inspect, FFmpeg's libraries in process "
                + "seeking to the keyframe at or before a tenth of the clip, libvips fit and JPEG q82); ffmpeg runs "
                + "once per file, seeking to the same time (it decodes from the keyframe up to that time)")
        return result
    }
}
