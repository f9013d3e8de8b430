import AlbumTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension Bench {
    /// Shared library rows, against the local servers of `Scripts/shared-library.sh` (started when
    /// needed), on loopback and through a ``LatencyProxy`` in front of PostgreSQL and of the S3
    /// server (10 ms each way: 20 ms round trips): 300 photos saved into a shared album vs
    /// `rclone copy --transfers 8` and `aws s3 cp --recursive` of the same files to the same
    /// server; one 189 MB video the same way; one photo's save, with the database round trips and
    /// S3 requests it took. Every round uses a new database and key prefix, so every original is
    /// really uploaded. `onePhotoOnly` (`--only sharedsingle`): the one photo's rows alone, without
    /// rclone and the AWS CLI.
    func shared(_ files: [URL], onePhotoOnly: Bool = false) throws -> ScenarioResult {
        var result = ScenarioResult(
            id: onePhotoOnly ? "sharedsingle" : "shared",
            title: onePhotoOnly
                ? "Shared library: one photo's save at 20 ms, its round trips"
                : "Shared library (PostgreSQL + SeaweedFS S3) vs rclone and the AWS CLI, loopback and 20 ms")
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
        let psql = "/usr/lib/postgresql/15/bin/psql"
        let rclone = onePhotoOnly ? "" : try Shell.resolve("rclone")
        // pyenv's shim costs seconds per start: the program it stands for.
        let awsFound = onePhotoOnly ? "" : try Shell.resolve("aws")
        let aws = awsFound.contains("/shims/") ? (Shell.output("pyenv", ["which", "aws"]) ?? awsFound) : awsFound
        guard let databasePort = URLComponents(string: base)?.port,
            let storePort = URLComponents(string: endpoint)?.port
        else { throw BenchFailure("unexpected server addresses: \(base) \(endpoint)") }

        // 10 ms each way in front of both servers.
        let oneWay = 0.010
        let databaseProxy = try LatencyProxy(target: databasePort, oneWay: oneWay)
        let storeProxy = try LatencyProxy(target: storePort, oneWay: oneWay)
        let wanBase = base.replacingOccurrences(of: ":\(databasePort)/", with: ":\(databaseProxy.port)/")
        let wanEndpoint = endpoint.replacingOccurrences(of: ":\(storePort)", with: ":\(storeProxy.port)")

        // rclone's remotes (one per network) and the AWS CLI, from the environment.
        for (remote, url) in [("BENCHLAN", endpoint), ("BENCHWAN", wanEndpoint)] {
            setenv("RCLONE_CONFIG_\(remote)_TYPE", "s3", 1)
            setenv("RCLONE_CONFIG_\(remote)_PROVIDER", "Other", 1)
            setenv("RCLONE_CONFIG_\(remote)_ACCESS_KEY_ID", exports["AWS_ACCESS_KEY_ID"] ?? "", 1)
            setenv("RCLONE_CONFIG_\(remote)_SECRET_ACCESS_KEY", exports["AWS_SECRET_ACCESS_KEY"] ?? "", 1)
            setenv("RCLONE_CONFIG_\(remote)_ENDPOINT", url, 1)
            setenv("RCLONE_CONFIG_\(remote)_REGION", "us-east-1", 1)
        }
        setenv("AWS_DEFAULT_REGION", "us-east-1", 1)
        // Both endpoints are plain HTTP; rclone refuses to start at all with a CA bundle set.
        unsetenv("AWS_CA_BUNDLE")

        // A new library per round: its own database and key prefix.
        var serial = 0
        func newLibrary(_ label: String, wan: Bool) throws -> String {
            serial += 1
            let name = "bench_\(getpid())_\(label)_\(serial)"
            try Shell.run(psql, [base, "-qc", "DROP DATABASE IF EXISTS \(name)"])
            let created = try Shell.run(psql, [base, "-qc", "CREATE DATABASE \(name)"])
            guard created.status == 0 else { throw BenchFailure("cannot create a database: \(created.stderr)") }
            let root = wan ? wanBase : base
            let url = String(root[..<root.lastIndex(of: "/")!]) + "/" + name
            let initialised = try Shell.run(
                album,
                [
                    "--library", url, "init", "--endpoint", wan ? wanEndpoint : endpoint, "--bucket", bucket,
                    "--prefix", name + "/",
                ])
            guard initialised.status == 0 else { throw BenchFailure("album init failed: \(initialised.stderr)") }
            return url
        }
        func rcloneCopy(_ folder: URL, wan: Bool) throws -> Double {
            serial += 1
            let remote = wan ? "BENCHWAN" : "BENCHLAN"
            return try Spawn.timed(
                rclone, ["copy", "--transfers", "8", folder.path, "\(remote):\(bucket)/rclone-\(getpid())-\(serial)"])
        }
        func awsCopy(_ folder: URL, wan: Bool) throws -> Double {
            serial += 1
            return try Spawn.timed(
                aws,
                [
                    "s3", "cp", "--recursive", "--only-show-errors", "--endpoint-url", wan ? wanEndpoint : endpoint,
                    folder.path, "s3://\(bucket)/aws-\(getpid())-\(serial)/",
                ])
        }

        result.parameters = [
            "files": "\(files.count)", "rounds": "\(rounds)", "oneWayDelayMs": "\(Int(oneWay * 1000))",
        ]
        if !onePhotoOnly { try compared(files, &result) }

        /// The batch and the video rows, each against rclone and the AWS CLI.
        func compared(_ files: [URL], _ result: inout ScenarioResult) throws {
            // The photos in a folder of their own (hard links), for rclone and the AWS CLI.
            let folder = try directory("shared-photos")
            for file in files {
                try FileManager.default.linkItem(at: file, to: folder.appendingPathComponent(file.lastPathComponent))
            }
            let paths = files.map(\.path)
            for wan in [false, true] {
                let network = wan ? "20 ms" : "loopback"
                let times = try Rounds.run(
                    rounds,
                    [
                        { _ in
                            let url = try newLibrary("batch", wan: wan)
                            return try Spawn.timed(album, ["--library", url, "save", "--album", "Batch"] + paths)
                        },
                        { _ in try rcloneCopy(folder, wan: wan) },
                        { _ in try awsCopy(folder, wan: wan) },
                    ])
                result.add("album save, \(files.count) photos, \(network)", Statistics.median(times[0]) * 1000, "ms")
                result.add("rclone copy --transfers 8, \(network)", Statistics.median(times[1]) * 1000, "ms")
                result.add("aws s3 cp --recursive, \(network)", Statistics.median(times[2]) * 1000, "ms")
                result.paired(
                    "\(files.count) photos / rclone, \(network)", ours: times[0], baseline: times[1], faster: false,
                    goal: .atMost(1.1))
                result.paired(
                    "\(files.count) photos / aws s3 cp, \(network)", ours: times[0], baseline: times[2], faster: false,
                    goal: nil)
            }

            // One large video at 20 ms.
            let videoFolder = try directory("shared-video")
            let video = videoFolder.appendingPathComponent("clip-189mb.mp4")
            try Bench.makeLargeMP4(
                at: video, bytes: 189_000_000, from: packageRoot.appendingPathComponent("Examples/clip.mp4"))
            let videoTimes = try Rounds.run(
                rounds,
                [
                    { _ in
                        let url = try newLibrary("video", wan: true)
                        return try Spawn.timed(album, ["--library", url, "save", "--album", "Video", video.path])
                    },
                    { _ in try rcloneCopy(videoFolder, wan: true) },
                    { _ in try awsCopy(videoFolder, wan: true) },
                ])
            result.add("album save, 189 MB video, 20 ms", Statistics.median(videoTimes[0]) * 1000, "ms")
            result.add("rclone copy, 189 MB video, 20 ms", Statistics.median(videoTimes[1]) * 1000, "ms")
            result.add("aws s3 cp, 189 MB video, 20 ms", Statistics.median(videoTimes[2]) * 1000, "ms")
            result.paired(
                "189 MB video / rclone, 20 ms", ours: videoTimes[0], baseline: videoTimes[1], faster: false,
                goal: .atMost(1.1))
            result.paired(
                "189 MB video / aws s3 cp, 20 ms", ours: videoTimes[0], baseline: videoTimes[2], faster: false,
                goal: nil)
            discard(folder, now: true)
            discard(videoFolder, now: true)
        }

        // One photo at a time at 20 ms, into one library: the whole process, and what it asked of
        // the servers (round trips counted by the proxies).
        let url = try newLibrary("single", wan: true)
        var single: [Double] = []
        var databaseTurns: [Double] = []
        var databaseWaits: [Double] = []
        var storeTurns: [Double] = []
        for file in files.prefix(max(rounds, 10)) {
            Statistics.flushAllFileSystems()
            _ = databaseProxy.takeCounts()
            _ = storeProxy.takeCounts()
            single.append(try Spawn.timed(album, ["--library", url, "save", "--album", "Single", file.path]))
            let database = databaseProxy.takeCounts()
            databaseTurns.append(Double(database.turns))
            databaseWaits.append(Double(database.waits))
            storeTurns.append(Double(storeProxy.takeCounts().turns))
        }
        result.measured("one photo's save, 20 ms", single.map { $0 * 1000 }, unit: "ms", goal: .atMost(120))
        result.measured("one photo: PostgreSQL round trips", databaseTurns, unit: "", goal: .atMost(5))
        result.measured("one photo: PostgreSQL round trips waited for", databaseWaits, unit: "", goal: nil)
        result.measured("one photo: S3 round trips", storeTurns, unit: "", goal: nil)
        result.notes.append(
            "20 ms: a relay in album-bench delays each direction by 10 ms in front of PostgreSQL and the S3 server (bandwidth unlimited); round trips are the client's turns to speak on each connection, connection set-up included (TLS request, start-up, SCRAM; not the TCP handshake, which is delayed all the same); those waited for leave out turns the server never answers (the goodbye at disconnection)."
        )
        return result
    }
}
