import AlbumKitCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Bench {
    /// 5. Peak resident memory of a process saving one very large video, measured in a child
    /// process (`VmHWM`), next to the same process saving a small photo.
    func memory(_ small: URL, video big: URL) async throws -> ScenarioResult {
        var result = ScenarioResult(id: "memory", title: "Peak memory while saving a 1 GB video")
        let bytes = Corpus.byteCount([big])
        result.parameters = ["fileBytes": "\(bytes)"]

        let library = scratch.appendingPathComponent("memory.albumlibrary")
        try? FileManager.default.removeItem(at: library)
        let baseline = try ChildProcess.measure(["save", library.path, small.path])
        Statistics.flushAllFileSystems()
        let large = try ChildProcess.measure(["save", library.path, big.path])
        Statistics.flushAllFileSystems()
        let copyDirectory = scratch.appendingPathComponent("memory-cp")
        let copy = try Baseline.copyThenSync([big.path], into: copyDirectory)
        discard(copyDirectory, now: true)

        result.add("peak RSS saving a small photo", baseline.peakMB, "MB")
        result.add("peak RSS saving the 1 GB video", large.peakMB, "MB")
        result.add("AlbumKit save of the 1 GB video", Self.megabytes(bytes) / large.seconds, "MB/s")
        result.add("cp + sync of the 1 GB video", Self.megabytes(bytes) / copy, "MB/s")
        result.check("peak RSS saving 1 GB", large.peakMB, unit: "MB", target: "< 64 MB", met: large.peakMB < 64)
        result.ratio("peak RSS 1 GB / small photo", large.peakMB / baseline.peakMB)
        result.ratio("AlbumKit throughput / cp+sync (1 GB file)", copy / large.seconds)
        result.notes.append(
            "the video is Examples/clip.mp4 followed by a `free` box of random bytes padding it to 1 GiB; VmHWM of a child process that opens the library and saves the file"
        )
        discard(library, now: true)
        return result
    }

    /// Writes an MP4 of exactly `bytes`: a real clip followed by one `free` box (a valid ISO-BMFF
    /// box that players skip) filled with pseudo-random bytes, so every block is on disk (not
    /// sparse) and nothing compresses or deduplicates it.
    static func makeLargeMP4(at url: URL, bytes: Int64, from clip: URL) throws {
        let head = try Data(contentsOf: clip)
        let padding = bytes - Int64(head.count)
        guard padding > 8, padding <= Int64(UInt32.max) else { throw BenchFailure("bad padding size") }
        var box = Data()
        for shift in stride(from: 24, through: 0, by: -8) { box.append(UInt8((padding >> Int64(shift)) & 0xFF)) }
        box.append(contentsOf: Array("free".utf8))
        guard FileManager.default.createFile(atPath: url.path, contents: head + box),
            let handle = FileHandle(forWritingAtPath: url.path)
        else { throw BenchFailure("cannot create \(url.path)") }
        defer { try? handle.close() }
        try handle.seekToEnd()
        var remaining = Int(padding) - 8
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var chunk = [UInt64](repeating: 0, count: 1 << 19)  // 4 MiB
        while remaining > 0 {
            for index in chunk.indices {
                // xorshift64: fast, and no two blocks of the file alike.
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                chunk[index] = state
            }
            let count = min(remaining, chunk.count * 8)
            try chunk.withUnsafeBytes { try handle.write(contentsOf: Data($0.prefix(count))) }
            remaining -= count
        }
    }
}

/// Runs `album-bench --child …` and reads what it reports.
enum ChildProcess {
    struct Measurement: Codable {
        var peakKB: Int
        var seconds: Double
        var peakMB: Double { Double(peakKB) / 1024 }
    }

    static func measure(_ arguments: [String]) throws -> Measurement {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        let outcome = try Shell.run(executable, ["--child"] + arguments)
        guard outcome.status == 0, let line = outcome.stdout.split(separator: "\n").last,
            let measurement = try? JSONDecoder().decode(Measurement.self, from: Data(line.utf8))
        else { throw BenchFailure("child \(arguments) failed: \(outcome.stderr)\(outcome.stdout)") }
        return measurement
    }

    /// The child side: `save LIBRARY FILE` saves FILE into the album "Memory" and prints its
    /// peak resident set size (`VmHWM`) and the time the save took, as JSON.
    static func run(_ arguments: [String]) async -> Int32 {
        guard arguments.count == 3, arguments[0] == "save" else {
            FileHandle.standardError.write(Data("album-bench --child save LIBRARY FILE\n".utf8))
            return 2
        }
        do {
            let library = try PhotoLibrary.catalog(at: URL(fileURLWithPath: arguments[1]))
            let album = library.album(titled: "Memory")
            let seconds = try await Statistics.time {
                _ = try await album.save(.file(URL(fileURLWithPath: arguments[2])))
            }
            let data = try JSONEncoder().encode(Measurement(peakKB: peakResidentKB(), seconds: seconds))
            print(String(decoding: data, as: UTF8.self))
            return 0
        } catch {
            FileHandle.standardError.write(Data("album-bench child: \(error)\n".utf8))
            return 1
        }
    }

    /// `VmHWM` from `/proc/self/status` (falls back to `getrusage`).
    static func peakResidentKB() -> Int {
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let value = Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "")
        {
            return value
        }
        var usage = rusage()
        #if canImport(Darwin)
            getrusage(RUSAGE_SELF, &usage)
            return Int(usage.ru_maxrss) / 1024  // bytes on Darwin
        #else
            getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
            return Int(usage.ru_maxrss)  // kilobytes on Linux
        #endif
    }
}
