import AlbumKitCore
import Foundation

// album-bench: AlbumKit's numbers next to cp, fsync, exiftool and the seeds' algorithm, measured
// in one run on one machine. See Docs/performance.md.

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
defer { try? FileManager.default.removeItem(at: scratch) }

let bench = Bench(options: options, scratch: scratch, packageRoot: packageRoot)
var report = Report(
    date: ISO8601DateFormatter().string(from: Date()),
    commit: Shell.output("git", ["rev-parse", "HEAD"], in: packageRoot.path) ?? "unknown",
    isDirty: !(Shell.output("git", ["status", "--porcelain", "--untracked-files=no"], in: packageRoot.path) ?? "")
        .isEmpty,
    isLarge: options.large, machine: Machine.describe(scratch: scratch.path))
Table.header(report)

let fileCount = bench.size(200, large: 1_000)
let corpus: [URL]
do {
    Table.progress("generating \(fileCount) JPEGs of ~200 KB")
    corpus = try Corpus.jpegs(count: fileCount, kilobytes: 200, in: scratch.appendingPathComponent("corpus"))
} catch {
    Table.progress("cannot generate the corpus: \(error)")
    exit(1)
}
Statistics.settle()

let scenarios: [(id: String, run: () async throws -> ScenarioResult)] = [
    ("batch", { try await bench.batch(corpus) }),
    ("single", { try await bench.single(Array(corpus.prefix(bench.size(50, large: 200)))) }),
    ("lookup", { try await bench.lookup(corpus) }),
    ("size", { try await bench.librarySize(corpus) }),
    ("memory", { try await bench.memory(corpus[0]) }),
    ("folders", { try await bench.folders(corpus) }),
    ("metadata", { try await bench.metadata(corpus) }),
]
for scenario in scenarios where options.runs(scenario.id) {
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
    exit(1)
}
