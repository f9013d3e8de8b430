import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension Bench {
    /// Shared library rows, against the local servers of `Scripts/shared-library.sh` (started when
    /// needed): a batch into a shared-library album vs uploading the same files to the same S3 server
    /// with one `curl` process (`aws s3 cp`-class: one connection, no hashing, no database), and the
    /// latency of one save vs one `curl` PUT. Every round uses a new database and key prefix, so
    /// every original is really uploaded.
    func shared(_ files: [URL]) throws -> ScenarioResult {
        var result = ScenarioResult(
            id: "shared", title: "Shared library (PostgreSQL + SeaweedFS S3, loopback) vs curl uploads")
        let album = try Spawn.albumExecutable()
        setenv("ALBUMKIT_SKIP_INIT", "1", 1)
        let up = try Shell.run(
            "/bin/bash", [packageRoot.appendingPathComponent("Scripts/shared-library.sh").path, "up"])
        guard up.status == 0 else {
            result.skipped = "the local servers did not start: \(up.stderr.suffix(300))"
            return result
        }
        var exports: [String: String] = [:]
        for line in up.stdout.split(separator: "\n") where line.hasPrefix("export ") {
            let pair = line.dropFirst(7).split(separator: "=", maxSplits: 1).map(String.init)
            if pair.count == 2 { exports[pair[0]] = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "'")) }
        }
        for (name, value) in exports where name != "ALBUMKIT_LIBRARY" { setenv(name, value, 1) }
        let base = exports["ALBUMKIT_LIBRARY"] ?? ""
        let endpoint = exports["ALBUMKIT_S3_ENDPOINT"] ?? ""
        let bucket = exports["ALBUMKIT_S3_BUCKET"] ?? ""
        let user = "\(exports["AWS_ACCESS_KEY_ID"] ?? ""):\(exports["AWS_SECRET_ACCESS_KEY"] ?? "")"
        let psql = "/usr/lib/postgresql/15/bin/psql"

        // A new library per round: its own database and key prefix.
        func newLibrary(_ label: String) throws -> String {
            let name = "bench_\(getpid())_\(label)"
            try Shell.run(psql, [base, "-qc", "DROP DATABASE IF EXISTS \(name)"])
            let created = try Shell.run(psql, [base, "-qc", "CREATE DATABASE \(name)"])
            guard created.status == 0 else { throw BenchFailure("cannot create a database: \(created.stderr)") }
            let url = String(base[..<base.lastIndex(of: "/")!]) + "/" + name
            let initialised = try Shell.run(
                album, ["--library", url, "init", "--endpoint", endpoint, "--bucket", bucket, "--prefix", name + "/"])
            guard initialised.status == 0 else { throw BenchFailure("album init failed: \(initialised.stderr)") }
            return url
        }
        func curlUpload(_ batch: [URL], prefix: String) throws -> Double {
            var arguments = ["-sf", "-o", "/dev/null", "--aws-sigv4", "aws:amz:us-east-1:s3", "--user", user]
            for file in batch {
                arguments += ["-T", file.path, "\(endpoint)/\(bucket)/\(prefix)/\(file.lastPathComponent)"]
            }
            return try Spawn.timed("curl", arguments)
        }

        let batch = files.map(\.path)
        result.parameters = ["files": "\(files.count)", "rounds": "\(rounds)", "network": "loopback"]
        let times = try Rounds.run(
            rounds,
            [
                { round in
                    let url = try newLibrary("batch\(round)")
                    return try Spawn.timed(album, ["--library", url, "save", "--album", "Batch"] + batch)
                },
                { round in try curlUpload(files, prefix: "curl-\(getpid())-\(round)") },
            ])
        result.add("album save (shared)", Statistics.median(times[0]) * 1000, "ms")
        result.add("curl upload", Statistics.median(times[1]) * 1000, "ms")
        result.paired(
            "\(files.count) files: curl time / album", ours: times[0], baseline: times[1], faster: true,
            goal: .atLeast(0.5))

        // One save at a time into one library, vs one curl PUT per file.
        let single = Array(files.prefix(20))
        let url = try newLibrary("single")
        var ours: [Double] = []
        var theirs: [Double] = []
        for (index, file) in single.enumerated() {
            Statistics.settle()
            ours.append(try Spawn.timed(album, ["--library", url, "save", "--album", "Single", file.path]))
            theirs.append(try curlUpload([file], prefix: "curl-single-\(getpid())-\(index)"))
        }
        result.measured("single save, median", ours.map { $0 * 1000 }, unit: "ms", goal: nil)
        result.paired("single save / one curl PUT", ours: ours, baseline: theirs, faster: false, goal: .atMost(3))
        result.notes.append(
            "Loopback only. Over a real network each batch of up to 64 files adds about 15 database round trips to its uploads (8 at a time); see Docs/shared.md."
        )
        return result
    }
}
