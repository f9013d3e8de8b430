import Foundation

extension Bench {
    /// `album serve` (Docs/serve.md), measured by `Scripts/serve/bench-serve.py`: thumbnails served
    /// per second from a warm page cache (8 keep-alive connections), and 300 photos uploaded through
    /// the page in headless Chromium against `curl` sending the same files to the same server.
    /// Skipped, saying why, where libmicrohttpd, Chromium or Playwright is missing.
    func serve() throws -> ScenarioResult {
        var result = ScenarioResult(
            id: "serve", title: "album serve: thumbnails per second; 300 photos, Chromium vs curl")
        let album = try Spawn.albumExecutable()
        let work = scratch.appendingPathComponent("serve")
        let outcome = try Shell.run(
            "python3",
            [packageRoot.appendingPathComponent("Scripts/serve/bench-serve.py").path, album, work.path, "300"])
        func number(after label: String) -> Double? {
            outcome.stdout.split(separator: "\n").first { $0.hasPrefix(label) }
                .flatMap { $0.split(separator: ":").last }
                .flatMap { Double($0.trimmingCharacters(in: .whitespaces).split(separator: " ")[0]) }
        }
        guard outcome.status == 0, let thumbnails = number(after: "thumbnails served per second"),
            let ratio = number(after: "browser / curl speed")
        else {
            result.skipped = "bench-serve.py did not finish: \(outcome.stderr.split(separator: "\n").last ?? "")"
            return result
        }
        result.parameters = ["photos": "300", "connections": "8"]
        result.measured("thumbnails served per second", [thumbnails], unit: "/s", goal: .atLeast(2_000))
        result.measured("upload in Chromium / curl, speed", [ratio], unit: "x", goal: .atLeast(0.9))
        return result
    }
}
