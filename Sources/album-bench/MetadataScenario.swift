import AlbumKitCore
import Foundation

extension Bench {
    /// 7. Metadata extraction (format, size, orientation, date, GPS, duration; no pixel decoding)
    /// over the media test corpus and the generated JPEGs, vs `exiftool -fast`, plus the bytes
    /// AlbumKit reads per file.
    func metadata(_ jpegs: [URL]) async throws -> ScenarioResult {
        var result = ScenarioResult(id: "metadata", title: "Media metadata throughput vs exiftool -fast")
        let corpusDirectory = packageRoot.appendingPathComponent("Tests/AlbumKitMediaTests/Fixtures/corpus")
        let corpus = ((try? FileManager.default.contentsOfDirectory(atPath: corpusDirectory.path)) ?? []).sorted()
            .map { corpusDirectory.appendingPathComponent($0) }
        guard !corpus.isEmpty else { throw BenchFailure("no media corpus at \(corpusDirectory.path)") }
        let hasExiftool = Shell.has("exiftool")
        let repeats = size(20, large: 100)
        result.parameters = [
            "corpusFiles": "\(corpus.count)", "jpegs": "\(jpegs.count)", "repeats": "\(repeats)",
        ]

        for (name, files) in [("media corpus", corpus), ("generated JPEGs", jpegs)] {
            // Ours: open, inspect through a counting source, close; the page cache is warm for both.
            var inspected = 0
            var bytesRead: UInt64 = 0
            var fileBytes: UInt64 = 0
            let ours = try Statistics.time {
                for pass in 0..<repeats {
                    for file in files {
                        let (descriptor, size) = try FileSystem.openForReading(file.path)
                        defer { FileSystem.close(descriptor) }
                        let source = CountingByteSource(FileByteSource(file: descriptor, size: size))
                        if (try? MediaInspector().inspect(source)) != nil { inspected += 1 }
                        if pass == 0 {
                            bytesRead += source.bytesRead
                            fileBytes += size
                        }
                    }
                }
            }
            let perFile = ours / Double(repeats * files.count)
            result.add("\(name): AlbumKit", 1 / perFile, "files/s")
            result.add("\(name): AlbumKit bytes read per file", Double(bytesRead) / Double(files.count), "bytes")
            result.add(
                "\(name): AlbumKit share of each file read", Double(bytesRead) / Double(fileBytes) * 100, "%")
            if inspected != repeats * files.count {
                result.notes.append(
                    "\(name): \(files.count - inspected / repeats) files are not valid media (broken variants)")
            }
            guard hasExiftool else { continue }
            // exiftool: one process over the list repeated, so its start-up (~0.1 s of Perl) is shared.
            let exifRepeats = max(1, repeats / 4)
            let list = Array(repeating: files.map(\.path), count: exifRepeats).flatMap { $0 }
            let argumentFile = scratch.appendingPathComponent("exiftool-args-\(name.count).txt")
            try list.joined(separator: "\n").write(to: argumentFile, atomically: true, encoding: .utf8)
            let exif = try Statistics.time {
                let run = try Shell.run("exiftool", ["-fast", "-json", "-n", "-q", "-q", "-@", argumentFile.path])
                guard !run.stdout.isEmpty else { throw BenchFailure("exiftool printed nothing: \(run.stderr)") }
            }
            let exifPerFile = exif / Double(list.count)
            result.add("\(name): exiftool -fast", 1 / exifPerFile, "files/s")
            result.ratio("\(name): AlbumKit / exiftool -fast throughput", exifPerFile / perFile)
        }
        if !hasExiftool {
            result.notes.append("exiftool is not installed: install libimage-exiftool-perl for the comparison")
        }
        result.notes.append(
            "both read files from a warm page cache; exiftool runs once over the list repeated and reads every "
                + "tag it knows, AlbumKit only the dozen keys it needs")
        return result
    }
}
