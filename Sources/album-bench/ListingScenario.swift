import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Bench {
    /// The `album` commands a user runs on a large library, each a process, at 10 000 and
    /// 100 000 assets (1 000 000 with `--large`): libraries built through the CLI, 100 photos to
    /// an album plus one album ("All") holding every photo (`--sizes` chooses others, the first the
    /// base). Each command's time against its time at the smallest size (listings by their first
    /// page: `| head -20`), and its peak memory; `verify` also against hashing the library's
    /// originals with `sha256sum` on every core.
    func listing() async throws -> ScenarioResult {
        var result = ScenarioResult(
            id: "listing", title: "Listings and edits on large catalogs (album commands, first page of listings)")
        let sizes = options.sizes ?? size([10_000, 100_000], large: [10_000, 100_000, 1_000_000])
        let album = try Spawn.albumExecutable()
        let kept = options.libraries.map { URL(fileURLWithPath: $0) } ?? scratch.appendingPathComponent("listing")
        result.parameters = [
            "assets": sizes.map(String.init).joined(separator: ", "), "rounds": "\(rounds)",
            "libraries": kept.path,
        ]
        var libraries: [(count: Int, args: [String], spare: String)] = []
        for count in sizes {
            let built = try await Self.listingLibrary(count, in: kept, album: album)
            if let seconds = built.seconds {
                let how = count > Self.largestBuiltByTheCLI ? "the API's saves (one process)" : "`album save`"
                result.add("building \(count) assets through \(how)", seconds, "s")
            }
            libraries.append((count, built.args, built.spare))
        }
        // Each command in every round at every size, sizes alternating (the machine's load falls
        // on all of them alike); a pipeline through `sh` where the command's output is read. A
        // command flat in the library's size is held to 1.5× its time at the smallest size; one
        // that prints or checks what grows (`albums` lists an album per 100 photos, `show` every
        // line, `verify` every file) to 1.5× per line or file: linear.
        let commands: [(name: String, grows: Bool, run: ([String], String, String) -> [String])] = [
            (
                "save of one photo", false,
                { args, _, photo in args + ["save", "--quiet", "--album", "Album 0000", photo] }
            ),
            ("assets | head -20", false, { args, _, _ in Self.pipeline(album, args + ["assets"], "head -20") }),
            ("assets --limit 20", false, { args, _, _ in args + ["assets", "--limit", "20"] }),
            ("albums", true, { args, _, _ in args + ["albums"] }),
            ("add of one asset", false, { args, spare, _ in args + ["add", "--quiet", "Album 0001", spare] }),
            ("remove of one asset", false, { args, spare, _ in args + ["remove", "--quiet", "Album 0001", spare] }),
            ("show All | head -20", false, { args, _, _ in Self.pipeline(album, args + ["show", "All"], "head -20") }),
            ("show All (every line)", true, { args, _, _ in args + ["show", "All"] }),
            ("verify", true, { args, _, _ in args + ["verify", "--quiet"] }),
            // What verify cannot do without: read and hash every original, on every core.
            ("sha256sum of the originals, every core", true, { args, _, _ in Self.hashingOriginals(of: args[1]) }),
        ]
        var times = [[[Double]]](repeating: [[Double]](repeating: [], count: sizes.count), count: commands.count)
        var peaks = times
        let photos = try directory("listing-photos")
        Statistics.flushAllFileSystems()
        for round in 0..<rounds {
            for (index, command) in commands.enumerated() {
                for offset in libraries.indices {
                    let subject = (offset + round) % libraries.count
                    let (_, args, spare) = libraries[subject]
                    // A new photo each time: a save, not a recognition.
                    let photo = photos.appendingPathComponent("IMG_NEW_\(round)_\(subject).JPG")
                    if index == 0 {
                        try Data(Corpus.uniqueJPEG(Self.tinyJPEG, tag: "listing \(round) \(subject) \(getpid())"))
                            .write(to: photo)
                    }
                    let arguments = command.run(args, spare, photo.path)
                    let executable = arguments.first == "-c" ? "/bin/sh" : album
                    let run = try Spawn.run(executable, arguments)
                    times[index][subject].append(run.seconds)
                    peaks[index][subject].append(Double(run.peakKB) / 1024)
                }
            }
        }
        for (index, command) in commands.enumerated() {
            for (subject, library) in libraries.enumerated() {
                result.measured(
                    "\(command.name), \(library.count) assets", times[index][subject].map { $0 * 1000 }, unit: "ms",
                    goal: nil)
            }
            let base = Statistics.median(times[index][0])
            for subject in libraries.indices.dropFirst() {
                let growth = command.grows ? Double(libraries[subject].count) / Double(libraries[0].count) : 1
                let ratio = Statistics.median(times[index][subject]) / base / growth
                result.ratio(
                    "\(command.name)\(command.grows ? " per line or file" : ""): \(libraries[subject].count) / \(libraries[0].count) assets",
                    ratio, target: "≤ 1.5", met: ratio <= 1.5)
            }
            let peak = peaks[index].flatMap { $0 }.max() ?? 0
            result.check("\(command.name): peak memory", peak, unit: "MB", target: "< 64 MB", met: peak < 64)
        }
        if let verify = commands.firstIndex(where: { $0.name == "verify" }), let hashing = commands.indices.last {
            for (subject, library) in libraries.enumerated() {
                let ratio = Statistics.median(times[verify][subject]) / Statistics.median(times[hashing][subject])
                result.ratio(
                    "verify against sha256sum of the originals on every core: \(library.count) assets", ratio,
                    target: "≤ 1.5", met: ratio <= 1.5)
            }
        }
        discard(photos)
        if options.libraries == nil { discard(kept) }
        return result
    }

    /// `sh -c 'ALBUM ARGS | FILTER'` as arguments of `/bin/sh` (the filter reads the first lines
    /// and exits; the command ends at its next write).
    static func pipeline(_ album: String, _ arguments: [String], _ filter: String) -> [String] {
        let quoted = ([album] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        return ["-c", quoted.joined(separator: " ") + " | " + filter + " > /dev/null"]
    }

    /// `sh -c` arguments hashing every file under `library`'s `originals/` with `hasher`
    /// (`sha256sum` unless told), one process per core at a time, 500 files each.
    static func hashingOriginals(of library: String, with hasher: String = "sha256sum") -> [String] {
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let quoted = "'" + (library + "/originals").replacingOccurrences(of: "'", with: "'\\''") + "'"
        return ["-c", "find \(quoted) -type f -print0 | xargs -0 -P \(cores) -n 500 \(hasher) > /dev/null"]
    }

    /// The largest library built through `album save` processes; larger ones are built through
    /// the API in one process (``buildThroughAPI(_:library:)``).
    static let largestBuiltByTheCLI = 100_000

    /// A JPEG of 16×16 grey pixels (the test corpus's smallest): 100 000 of them with a tag each
    /// are 40 MB, so the libraries' size is in their count, not their bytes.
    static let tinyJPEG: [UInt8] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let url = root.appendingPathComponent("Tests/AlbumKitMediaTests/Fixtures/corpus/jpeg-plain.jpg")
        return (try? [UInt8](Data(contentsOf: url))) ?? []
    }()

    /// The library of `count` photos in `folder` (`catalog-COUNT.albumlibrary`, its photos in
    /// `photos-COUNT/`), built through `album save` unless a finished one is there (`--libraries`
    /// keeps them between runs): 100 photos to each album "Album NNNN", then every photo saved
    /// again into "All" (recognised, so added to it). Returns the arguments naming it, an asset
    /// not in "Album 0001" (for `add` and `remove`) and the seconds the build took.
    static func listingLibrary(
        _ count: Int, in folder: URL, album: String
    ) async throws -> (args: [String], spare: String, seconds: Double?) {
        let library = folder.appendingPathComponent("catalog-\(count).albumlibrary")
        let photos = folder.appendingPathComponent("photos-\(count)")
        let finished = folder.appendingPathComponent("catalog-\(count).built")
        let args = ["--library", library.path]
        var seconds: Double?
        if !FileManager.default.fileExists(atPath: finished.path) && count > largestBuiltByTheCLI {
            guard !tinyJPEG.isEmpty else { throw BenchFailure("the test corpus's jpeg-plain.jpg is missing") }
            // A library left by a build that did not finish is built again from nothing.
            try? FileManager.default.removeItem(at: library)
            let started = Statistics.now()
            try await buildThroughAPI(count, library: library)
            seconds = Statistics.now() - started
            _ = FileManager.default.createFile(atPath: finished.path, contents: Data())
        }
        if !FileManager.default.fileExists(atPath: finished.path) {
            guard !tinyJPEG.isEmpty else { throw BenchFailure("the test corpus's jpeg-plain.jpg is missing") }
            try? FileManager.default.removeItem(at: library)
            let started = Statistics.now()
            for folder in 0..<(count / 100) {
                let name = String(format: "%04d", folder)
                let directory = photos.appendingPathComponent(name)
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                for n in 0..<100 {
                    let number = folder * 100 + n + 1
                    let file = directory.appendingPathComponent(String(format: "IMG_%06d.JPG", number))
                    if !FileManager.default.fileExists(atPath: file.path) {
                        try Data(Corpus.uniqueJPEG(tinyJPEG, tag: "bench photo \(number)")).write(to: file)
                    }
                }
            }
            for folder in 0..<(count / 100) {
                let name = String(format: "%04d", folder)
                try Spawn.timed(
                    album,
                    args + [
                        "save", "--quiet", "--album", "Album \(name)", "-r", photos.appendingPathComponent(name).path,
                    ])
            }
            try Spawn.timed(album, args + ["save", "--quiet", "--album", "All", "-r", photos.path])
            seconds = Statistics.now() - started
            _ = FileManager.default.createFile(atPath: finished.path, contents: Data())
        }
        // An asset of "Album 0002": not in "Album 0001" (added and removed again by each round).
        let listed = try Shell.run(album, args + ["show", "Album 0002", "--json"])
        guard listed.status == 0,
            let assets = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]],
            let spare = assets.first?["id"] as? String
        else { throw BenchFailure("cannot list \"Album 0002\" of \(library.path): \(listed.stderr)") }
        return (args, spare, seconds)
    }
}
