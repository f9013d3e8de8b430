import Foundation

extension Bench {
    /// `album verify` of a catalog of camera-sized photos (1 000 JPEGs of about 3 MB; 3 000 with
    /// `--large`), built once through `album save`, against hashing
    /// the same originals with `sha256sum` on every core — the work `verify` cannot do without.
    /// The `listing` row measures the same ratio on libraries of ~330-byte photos, where hashing
    /// is nothing and `verify`'s replay of the journal is all there is; this one is a library as
    /// a camera fills it.
    func verifyCameraSized() throws -> ScenarioResult {
        var result = ScenarioResult(id: "verify", title: "`album verify` of camera-sized photos against sha256sum")
        let count = size(1_000, large: 3_000)
        let album = try Spawn.albumExecutable()
        let photos = try Corpus.jpegs(count: count, kilobytes: 3_000, in: try directory("verify-photos"))
        let library = try directory("verify-library").appendingPathComponent("Camera.albumlibrary")
        let args = ["--library", library.path]
        let built = try Spawn.timed(
            album, args + ["save", "--quiet", "--album", "Camera", "-r", photos[0].deletingLastPathComponent().path])
        discard(photos[0].deletingLastPathComponent(), now: true)
        let bytes = Corpus.byteCount(
            FileManager.default.enumerator(
                at: library.appendingPathComponent("originals"), includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL } ?? [])
        result.parameters = [
            "photos": "\(count)", "bytes": "\(bytes)", "rounds": "\(rounds)",
            "cores": "\(ProcessInfo.processInfo.activeProcessorCount)",
        ]
        result.add("building the library through `album save -r`", built, "s")
        // All read from the page cache after the first round: the same footing for each.
        let baselines: [(name: String, arguments: [String])] = [
            ("sha256sum", Self.hashingOriginals(of: library.path)),
            // OpenSSL's SHA-256 (with the processor's SHA instructions, as `verify`'s), where
            // coreutils' `sha256sum` computes it without them.
            ("openssl dgst -sha256", Self.hashingOriginals(of: library.path, with: "openssl dgst -sha256")),
        ]
        for baseline in baselines { _ = try Spawn.run("/bin/sh", baseline.arguments) }
        var verify: [Double] = []
        var hashing = [[Double]](repeating: [], count: baselines.count)
        var peak = 0
        for round in 0..<rounds {
            // Taking turns, which one goes first moving round by round.
            for turn in 0...baselines.count {
                let which = (turn + round) % (baselines.count + 1)
                if which == baselines.count {
                    let run = try Spawn.run(album, args + ["verify", "--quiet"])
                    verify.append(run.seconds)
                    peak = max(peak, run.peakKB)
                } else {
                    hashing[which].append(try Spawn.run("/bin/sh", baselines[which].arguments).seconds)
                }
            }
        }
        result.measured("verify, \(count) photos", verify.map { $0 * 1000 }, unit: "ms", goal: nil)
        for (offset, baseline) in baselines.enumerated() {
            result.measured(
                "\(baseline.name) of the originals, every core", hashing[offset].map { $0 * 1000 }, unit: "ms",
                goal: nil)
            result.paired(
                "verify against \(baseline.name) of the originals on every core", ours: verify,
                baseline: hashing[offset], faster: false, goal: .atMost(1.5))
        }
        let megabytes = Double(peak) / 1024
        result.check("verify: peak memory", megabytes, unit: "MB", target: "< 64 MB", met: megabytes < 64)
        discard(library.deletingLastPathComponent())
        return result
    }
}
