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
    /// Paired rounds per row.
    var rounds = 5
    /// Exit non-zero when a row misses its target by more than the run's own spread.
    var check = false
    /// Where the listing row keeps the large libraries it builds, to use them again in later runs
    /// (`--libraries DIR`); by default they are built in the scratch directory and removed.
    var libraries: String?
    /// The listing row's library sizes (`--sizes 10000,1000000`), the first the one the others are
    /// compared with; `nil` for the defaults.
    var sizes: [Int]?
    /// Internal: run as a measured child process (`--child KIND ARGS…`).
    var child: [String]?

    static let usage = """
        usage: album-bench [--check] [--rounds N] [--large] [--json PATH] [--only ID[,ID…]] [--tmp DIR]
                           [--libraries DIR] [--sizes N,N…]

          --check        exit 1 when a row misses its target by more than the run's own spread
                         (the max − min of its paired rounds)
          --rounds N     paired rounds per row (default 5)
          --large        full sizes for lookup, size, metadata and listing (10 000 albums, 1 M assets, …),
                         and a 4 GiB upload for resume
          --json PATH    where to write the results (default bench/results.json)
          --only IDS     run only these scenarios: catalog, slowdisk (root), busydisk, video, folders,
                         samesize, single, start, onephoto, lookup, size, rebuild, memory, metadata,
                         shared, reimport, sidecars, listing, verify, previews, posters, nearduplicates,
                         serve, resume, grid;
                         sharedsingle (only when named): shared's one-photo rows alone
          --tmp DIR      scratch directory parent (default: the system temporary directory); its
                         file system is what is measured
          --libraries DIR  where the listing row keeps the libraries it builds through the CLI
                         (10 000, 100 000, 1 000 000 photos), and the grid row its albums of
                         100 000 and 1 000 000, used again by later runs
          --sizes N,N…   the listing row's library sizes in photos, multiples of 100, the first the
                         base the others are compared with (default 10000,100000; with --large
                         also 1000000); those over 100 000 are built through the API in one process
        """

    init(_ arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--large": large = true
            case "--check": check = true
            case "--rounds":
                let value = try Self.value(for: argument, from: &rest)
                guard let count = Int(value), count >= 2 else {
                    throw UsageError(message: "--rounds needs a number ≥ 2\n\(Self.usage)", isHelp: false)
                }
                rounds = count
            case "--json": jsonPath = try Self.value(for: argument, from: &rest)
            case "--tmp": scratchParent = try Self.value(for: argument, from: &rest)
            case "--libraries": libraries = try Self.value(for: argument, from: &rest)
            case "--sizes":
                let value = try Self.value(for: argument, from: &rest)
                let counts = value.split(separator: ",").compactMap { Int($0) }
                guard counts.count >= 2, counts.count == value.split(separator: ",").count,
                    counts.allSatisfy({ $0 >= 100 && $0 % 100 == 0 })
                else {
                    throw UsageError(
                        message:
                            "--sizes needs two or more counts, multiples of 100, such as 10000,1000000\n\(Self.usage)",
                        isHelp: false)
                }
                sizes = counts
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
