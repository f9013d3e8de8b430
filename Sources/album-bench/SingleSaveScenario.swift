import AlbumKitCore
import Foundation

extension Bench {
    /// 2. One durable save at a time: latency vs copying one file and `fsync`ing it.
    func single(_ files: [URL]) async throws -> ScenarioResult {
        var result = ScenarioResult(id: "single", title: "Single durable saves vs cp + fsync of one file")
        result.parameters = ["saves": "\(files.count)"]
        let (url, library) = try library("single")
        let album = library.album(titled: "Single")
        _ = try await Self.save(files[0], into: album)  // creates the album: not what is measured
        let copies = try directory("single-cp")
        var ours: [Double] = []
        var copyFsync: [Double] = []
        var copyFsyncDirectory: [Double] = []
        Statistics.settle()
        for (index, file) in files.enumerated().dropFirst() {
            // Interleaved, so disk hiccups hit all three alike.
            ours.append(try await Statistics.time { _ = try await Self.save(file, into: album) })
            copyFsync.append(
                try Statistics.time {
                    try Baseline.copyAndFsync(
                        file, to: copies.appendingPathComponent("a\(index).jpg"), syncingDirectory: false)
                })
            copyFsyncDirectory.append(
                try Statistics.time {
                    try Baseline.copyAndFsync(
                        file, to: copies.appendingPathComponent("b\(index).jpg"), syncingDirectory: true)
                })
        }
        for (name, values) in [
            ("AlbumKit save", ours), ("cp + fsync", copyFsync), ("cp + fsync + dir fsync", copyFsyncDirectory),
        ] {
            result.add("\(name) median", Statistics.median(values) * 1000, "ms")
            result.add("\(name) p99", Statistics.percentile(values, 99) * 1000, "ms")
        }
        result.ratio("median latency AlbumKit / cp+fsync", Statistics.median(ours) / Statistics.median(copyFsync))
        result.ratio(
            "p99 latency AlbumKit / cp+fsync", Statistics.percentile(ours, 99) / Statistics.percentile(copyFsync, 99))
        result.ratio(
            "median latency AlbumKit / cp+fsync+dir fsync",
            Statistics.median(ours) / Statistics.median(copyFsyncDirectory))
        result.notes.append(
            "a durable AlbumKit save is: stage (O_TMPFILE) + hash, catalog transaction A (WAL fsync), link, "
                + "file fsync, directory fsync, transaction B (WAL fsync)")
        discard(url)
        discard(copies)
        return result
    }
}
