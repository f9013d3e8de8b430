import Foundation

/// `album-bench` command-line options.
struct BenchOptions: Sendable {
    /// Full sizes (1 000 files, 1 M assets, …) instead of the quick defaults.
    var large = false
    /// Where the JSON results go.
    var jsonPath = "bench/results.json"
    /// The scenarios to run, by id; empty runs all.
    var only: Set<String> = []
    /// Parent of the scratch directory (default: the system temporary directory).
    var scratchParent = FileManager.default.temporaryDirectory.path
    /// Internal: run as a measured child process (`--child KIND ARGS…`).
    var child: [String]?

    static let usage = """
        usage: album-bench [--large] [--json PATH] [--only ID[,ID…]] [--tmp DIR]

          --large        full sizes (1 000 files, 10 000 albums, 1 M assets, …); a few minutes more
          --json PATH    where to write the results (default bench/results.json)
          --only IDS     run only these scenarios: batch, single, lookup, size, memory, folders, metadata
          --tmp DIR      scratch directory parent (default: the system temporary directory); its
                         file system is what is measured
        """

    init(_ arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--large": large = true
            case "--json": jsonPath = try Self.value(for: argument, from: &rest)
            case "--tmp": scratchParent = try Self.value(for: argument, from: &rest)
            case "--only":
                only = Set(try Self.value(for: argument, from: &rest).split(separator: ",").map(String.init))
            case "--child":
                child = Array(rest)
                return
            case "-h", "--help": throw UsageError(message: Self.usage, isHelp: true)
            default: throw UsageError(message: "unknown option '\(argument)'\n\(Self.usage)", isHelp: false)
            }
        }
    }

    private static func value(for option: String, from rest: inout ArraySlice<String>) throws(UsageError) -> String {
        guard let value = rest.popFirst() else {
            throw UsageError(message: "\(option) needs a value\n\(usage)", isHelp: false)
        }
        return value
    }

    /// Whether scenario `id` is selected.
    func runs(_ id: String) -> Bool { only.isEmpty || only.contains(id) }
}

/// A bad command line (or `--help`).
struct UsageError: Error {
    let message: String
    let isHelp: Bool
}
