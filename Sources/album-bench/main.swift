import AlbumKitCore
import AlbumTestSupport
import Foundation

// album-bench: AlbumKit's numbers next to cp, fsync, exiftool and the previous design's algorithm, measured
// in one run on one machine. See Docs/performance.md.

// `album-bench --relay PORT…`: the 20 ms relay of the shared rows alone, in front of each local
// PORT, to look at one command over it (prints `PORT -> RELAYPORT` lines; Ctrl-C stops it).
if CommandLine.arguments.count > 2, CommandLine.arguments[1] == "--relay" {
    let proxies = try CommandLine.arguments.dropFirst(2).map { try LatencyProxy(target: Int($0) ?? 0, oneWay: 0.010) }
    let lines = proxies.map { "\($0.target) -> \($0.port)\n" }.joined()
    FileHandle.standardOutput.write(Data(lines.utf8))
    while true { sleep(3600) }
}

// `album-bench --batch-floor DIR FILE…`: the crash-safe batch floor the catalog rows time (BatchFloor).
if CommandLine.arguments.count > 2, CommandLine.arguments[1] == "--batch-floor" {
    exit(BatchFloor.main(Array(CommandLine.arguments.dropFirst(2))))
}

let options: BenchOptions
do { options = try BenchOptions(Array(CommandLine.arguments.dropFirst())) } catch {
    FileHandle.standardError.write(Data((error.message + "\n").utf8))
    exit(error.isHelp ? 0 : 2)
}
if let child = options.child { exit(await ChildProcess.run(child)) }

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let scratch = URL(fileURLWithPath: options.scratchParent).appendingPathComponent("album-bench-\(getpid())")
try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)

/// Removes the scratch directory and exits. (A top-level `defer` does not run when the program calls
/// `exit`: every `--check` that failed left its outputs behind, up to 13 GB a run.)
func finish(_ status: Int32) -> Never {
    try? FileManager.default.removeItem(at: scratch)
    exit(status)
}

let bench = Bench(options: options, scratch: scratch, packageRoot: packageRoot)
var report = Report(
    date: ISO8601DateFormatter().string(from: Date()),
    commit: Shell.output("git", ["rev-parse", "HEAD"], in: packageRoot.path) ?? "unknown",
    isDirty: !(Shell.output("git", ["status", "--porcelain", "--untracked-files=no"], in: packageRoot.path) ?? "")
        .isEmpty,
    isLarge: options.large, machine: Machine.describe(scratch: scratch.path))
Table.header(report)

// The listing and serve rows make their own photos (small ones, by the 100 000) and the near-duplicate
// row its own hashes: the corpus only for the others.
let corpus: [URL]
do {
    if !options.only.isEmpty,
        options.only.isSubset(of: ["listing", "previews", "posters", "nearduplicates", "serve", "resume", "grid"])
    {
        corpus = []
    } else {
        Table.progress("generating 1000 JPEGs of ~140 KB")
        corpus = try Corpus.jpegs(count: 1_000, kilobytes: 140, in: scratch.appendingPathComponent("corpus"))
    }
} catch {
    Table.progress("cannot generate the corpus: \(error)")
    finish(1)
}
let video = scratch.appendingPathComponent("video.mp4")
if options.runs("video") || options.runs("memory") {
    Table.progress("writing a 1 GiB video (random bytes after a real clip)")
    do {
        try Bench.makeLargeMP4(
            at: video, bytes: 1 << 30, from: packageRoot.appendingPathComponent("Examples/clip.mp4"))
    } catch {
        Table.progress("cannot write the video: \(error)")
        finish(1)
    }
}
Statistics.flushAllFileSystems()

let scenarios: [(id: String, run: () async throws -> ScenarioResult)] = [
    ("catalog", { try bench.catalogBatch(corpus, counts: [300, 1_000]) }),
    ("video", { try bench.video(video) }),
    ("slowdisk", { try bench.slowDisk(Array(corpus.prefix(300))) }),
    ("busydisk", { try bench.busyDisk(Array(corpus.prefix(300))) }),
    ("folders", { try bench.folderBatch(Array(corpus.prefix(300))) }),
    ("samesize", { try bench.folderSameSize() }),
    ("single", { try await bench.single(Array(corpus.prefix(300))) }),
    ("start", { try bench.start() }),
    ("onephoto", { try bench.onePhotoProcess(Array(corpus.prefix(300))) }),
    ("lookup", { try await bench.lookup(Array(corpus.prefix(200))) }),
    ("size", { try await bench.librarySize(Array(corpus.prefix(200))) }),
    ("rebuild", { try await bench.rebuild(Array(corpus.prefix(10))) }),
    ("memory", { try await bench.memory(corpus[0], video: video) }),
    ("metadata", { try await bench.metadata(Array(corpus.prefix(200))) }),
    ("shared", { try bench.shared(Array(corpus.prefix(300))) }),
    ("sharedsingle", { try bench.shared(Array(corpus.prefix(300)), onePhotoOnly: true) }),
    ("reimport", { try bench.reimport() }),
    ("sidecars", { try bench.sidecars() }),
    ("listing", { try await bench.listing() }),
    ("verify", { try bench.verifyCameraSized() }),
    ("previews", { try bench.previews() }),
    ("posters", { try bench.posterFrames() }),
    ("nearduplicates", { try await bench.nearDuplicates() }),
    ("serve", { try bench.serve() }),
    ("resume", { try bench.resume() }),
    ("grid", { try await bench.grid() }),
]
// `sharedsingle` is the one photo's rows of `shared` alone: run only when named.
for scenario in scenarios where options.runs(scenario.id) && (scenario.id != "sharedsingle" || !options.only.isEmpty) {
    Table.progress("running \(scenario.id)…")
    let started = Statistics.now()
    var result: ScenarioResult
    do { result = try await scenario.run() } catch {
        result = ScenarioResult(id: scenario.id, title: scenario.id)
        result.skipped = "failed: \(error)"
    }
    result.parameters["wallSeconds"] = String(format: "%.1f", Statistics.now() - started)
    Table.print(result)
    report.scenarios.append(result)
}

do {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let url = URL(
        fileURLWithPath: options.jsonPath, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try encoder.encode(report).write(to: url)
    Table.progress("results written to \(url.path)")
} catch {
    Table.progress("cannot write the results: \(error)")
    finish(1)
}

if options.check {
    let failing = report.scenarios.flatMap { scenario in
        scenario.ratios.filter { $0.failsCheck == true }.map { "\(scenario.id): \($0.name)" }
    }
    let skipped = report.scenarios.filter { $0.skipped != nil }.map(\.id)
    for row in failing { Table.progress("check: \(row) misses its target by more than the run's spread") }
    for id in skipped { Table.progress("check: \(id) did not run") }
    finish(failing.isEmpty && skipped.isEmpty ? 0 : 1)
}
finish(0)
