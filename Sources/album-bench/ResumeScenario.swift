import Foundation

extension Bench {
    /// A long video uploaded through the album page in headless Chromium, its connection cut at
    /// 60 % of its bytes and resumed (`Scripts/serve/bench-serve.py resume`): the bytes the page
    /// sends again, read off its own requests, against the one piece of 8 MiB the upload protocol
    /// may repeat. 4 GiB with `--large`, else 1 GiB; skipped, saying why, where Chromium, Playwright
    /// or four times the video's size on disk is missing.
    func resume() throws -> ScenarioResult {
        let gib = size(1, large: 4)
        var result = ScenarioResult(id: "resume", title: "album serve: a \(gib) GiB upload cut at 60 % and resumed")
        let outcome = try Shell.run(
            "python3",
            [
                packageRoot.appendingPathComponent("Scripts/serve/bench-serve.py").path, "resume",
                try Spawn.albumExecutable(), scratch.appendingPathComponent("resume").path, "\(gib)",
            ])
        let lines = outcome.stdout.split(separator: "\n")
        let skipped = lines.first { $0.hasPrefix("skipped: ") }
        // "upload of N bytes in P PATCHes: … M bytes sent in all, A sent again; …"
        let again = lines.first { $0.hasPrefix("upload of ") }.flatMap { line -> Double? in
            guard let end = line.range(of: " sent again") else { return nil }
            return Double(line[..<end.lowerBound].split(separator: " ").last ?? "")
        }
        // "ok: a 4 GiB video cut at 60 % resumes and is saved in S s (R MB/s): …"
        let speed = lines.first { $0.contains("resumes and is saved in") }.flatMap { line -> Double? in
            guard let open = line.range(of: " s ("), let unit = line.range(of: " MB/s)") else { return nil }
            return Double(line[open.upperBound..<unit.lowerBound])
        }
        guard outcome.status == 0, skipped == nil, let again else {
            let why = skipped.map(String.init) ?? String(outcome.stdout.split(separator: "\n").last ?? "")
            result.skipped = "bench-serve.py resume did not finish: \(why) \(outcome.stderr.suffix(300))"
            return result
        }
        result.parameters = ["video": "\(gib) GiB", "piece": "8 MiB", "cut at": "60 %"]
        result.measured("bytes sent again after resuming", [again / 1_048_576], unit: "MiB", goal: .atMost(8))
        if let speed { result.measured("upload speed, cut included", [speed], unit: "MB/s", goal: nil) }
        return result
    }
}
