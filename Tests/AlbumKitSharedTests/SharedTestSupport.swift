#if os(Linux)
    import AlbumKitConformance
    import AlbumTestSupport
    import CShims
    import Foundation
    import Testing

    @testable import AlbumKitCore
    @testable import AlbumKitShared

    /// Every test that talks to the servers, one at a time (one of them stops the object store).
    @Suite(.serialized, .enabled(if: SharedServers.enabled))
    enum SharedServerTests {}

    /// The local PostgreSQL and SeaweedFS started by `Scripts/shared-library.sh up`, once per test run,
    /// and stopped when the run ends.
    ///
    /// In CI (`CI` set) a server that cannot start fails the tests; elsewhere they are skipped with the
    /// reason printed. A test run never installs anything: the script is told not to, and says what
    /// is missing (`Scripts/shared-library.sh install` installs it). The servers this run started are
    /// stopped as it exits (and, should it be killed, by a watcher the script leaves), unless
    /// `ALBUMKIT_KEEP_SERVERS=1` keeps them; servers that were already running are left running. One
    /// line at the end says which ran, where, and what became of them.
    enum SharedServers {
        static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        static let script = packageRoot.appendingPathComponent("Scripts/shared-library.sh").path
        static let examples = packageRoot.appendingPathComponent("Examples")

        /// Whether this run leaves the servers it starts running.
        static var keep: Bool {
            ProcessInfo.processInfo.environment["ALBUMKIT_KEEP_SERVERS"].map { $0 == "1" } ?? false
        }

        /// The script's `export` lines, or why the servers could not start.
        static let exports: Result<[String: String], ServersUnavailable> = {
            var environment = ProcessInfo.processInfo.environment
            environment["ALBUMKIT_SKIP_INIT"] = "1"
            environment["ALBUMKIT_SHARED_NO_INSTALL"] = "1"
            let pid = String(getpid())
            if !keep { environment["ALBUMKIT_SHARED_USER_PID"] = pid }
            let run = Shell.run("/bin/bash", [script, "up"], environment: environment)
            guard run.status == 0 else {
                let reason = run.stderr.split(separator: "\n").last.map(String.init) ?? "exit status \(run.status)"
                return .failure(
                    ServersUnavailable(reason: reason.replacingOccurrences(of: "shared-library: ", with: "")))
            }
            var values: [String: String] = [:]
            for line in run.stdout.split(separator: "\n") where line.hasPrefix("export ") {
                let assignment = line.dropFirst("export ".count)
                guard let equals = assignment.firstIndex(of: "=") else { continue }
                values[String(assignment[..<equals])] = String(assignment[assignment.index(after: equals)...])
                    .trimmingCharacters(in: CharacterSet(charactersIn: "'"))
            }
            // libpq reads the password from the process environment, as it would for a user.
            for name in ["PGPASSWORD", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"] {
                if let value = values[name] { setenv(name, value, 1) }
            }
            let database = values["ALBUMKIT_LIBRARY"].flatMap { URL(string: $0) }.map {
                "\($0.host ?? "?"):\($0.port ?? 0)"
            }
            let store = values["ALBUMKIT_S3_ENDPOINT"].flatMap { URL(string: $0) }.map {
                "\($0.host ?? "?"):\($0.port ?? 0)"
            }
            let servers =
                "PostgreSQL 15 on \(database ?? "?") and SeaweedFS S3 on \(store ?? "?") (data in \(values["ALBUMKIT_SHARED_STATE"] ?? "?"))"
            TestRunReport.shared.ranAgainst("PostgreSQL 15 + SeaweedFS S3 (the shared-library tests)")
            let started = values["ALBUMKIT_SHARED_STARTED"] ?? ""
            TestRunReport.shared.atEnd {
                let outcome: String
                if keep {
                    outcome = "left running (ALBUMKIT_KEEP_SERVERS=1; `Scripts/shared-library.sh down` stops them)"
                } else {
                    let release = Shell.run("/bin/bash", [script, "release", pid])
                    let said = release.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                    outcome =
                        release.status == 0
                        ? said.isEmpty ? "stopped" : said
                        : "NOT stopped (`Scripts/shared-library.sh down` stops them): \(release.stderr.suffix(300))"
                }
                let names = started.split(separator: " ").map { $0 == "weed" ? "SeaweedFS" : "PostgreSQL" }
                let origin =
                    names.isEmpty
                    ? "already running" : names.count == 2 ? "started by this run" : "\(names[0]) started by this run"
                return "Shared-library servers: \(servers), \(origin): \(outcome)."
            }
            return .success(values)
        }()

        struct ServersUnavailable: Error, CustomStringConvertible {
            let reason: String
            var description: String { reason }
        }

        /// Whether the shared-library tests run: always in CI (where a failure to start fails them).
        static var enabled: Bool { skipReason == nil || ExternalTool.inCI }

        /// Why the shared-library tests are skipped, said once and counted in the run's last line.
        static let skipReason: String? = {
            guard case .failure(let failure) = exports else { return nil }
            if ExternalTool.inCI {
                print("the shared library's servers cannot start, so its tests fail (CI): \(failure.reason)")
            } else {
                print("shared library tests skipped: \(failure.reason)")
                TestRunReport.shared.skipped("suite", because: "the shared-library tests: \(failure.reason)")
            }
            return failure.reason
        }()

        static func environment() throws -> [String: String] { try exports.get() }
    }

    /// A new, initialised shared library in its own database and key prefix.
    struct SharedTestLibrary {
        let url: String
        let prefix: String
        let environment: [String: String]
        let backend: SharedBackend
        var library: PhotoLibrary { PhotoLibrary(backend: backend) }

        /// `retrySeconds`: how long the library retries an object store that does not answer (a test
        /// that points it at a dead endpoint on purpose waits no longer than it needs).
        init(retrySeconds: Int = 20) throws {
            let exports = try SharedServers.environment()
            let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
            let admin = try PostgresConnection(url: exports["ALBUMKIT_LIBRARY"]!)
            try admin.execute("CREATE DATABASE \(name)")
            let base = exports["ALBUMKIT_LIBRARY"]!
            url = String(base[..<base.lastIndex(of: "/")!]) + "/" + name
            prefix = "\(name)/"
            var environment = ProcessInfo.processInfo.environment.merging(exports) { $1 }
            environment["ALBUMKIT_LIBRARY"] = url
            environment["ALBUMKIT_S3_RETRY_SECONDS"] = String(retrySeconds)
            self.environment = environment
            backend = try SharedBackend.initialize(
                url: url,
                location: ObjectStoreLocation(
                    endpoint: exports["ALBUMKIT_S3_ENDPOINT"]!, bucket: exports["ALBUMKIT_S3_BUCKET"]!, prefix: prefix),
                environment: environment)
        }

        /// Runs SQL on the library's database from a separate connection.
        @discardableResult
        func sql(_ query: String, _ parameters: [String?] = []) throws -> [[String?]] {
            try PostgresConnection(url: url).execute(query, parameters)
        }

        /// The object keys under the library's prefix.
        func objects() throws -> [String] {
            try backend.store.list(prefix: prefix).map(\.key).sorted()
        }

        /// A valid JPEG whose bytes are unique, `label.jpg` in `directory`.
        static func uniqueJPEG(in directory: URL, _ label: String) throws -> URL {
            try Fixture.uniqueJPEGFile(label, in: directory)
        }
    }

    /// Runs processes for the tests.
    enum Shell {
        struct Run {
            let status: Int32
            let stdout: String
            let stderr: String
        }

        /// Runs a program to completion, its output captured in files. `posix_spawn` + `waitpid`, not
        /// `Process`: the script leaves servers running in the background, and Foundation's
        /// `waitUntilExit` was seen never to return after such a child exited.
        static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) -> Run {
            let base = NSTemporaryDirectory() + "albumkit-shell-\(UUID().uuidString)"
            defer {
                unlink(base + ".out")
                unlink(base + ".err")
            }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, base + ".out", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_addopen(&actions, 2, base + ".err", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            // Nothing else of this process: a pipe another test had just made for its own child was
            // inherited by the servers `start-store` started, and that test waited for its end for
            // ever (a whole run hung at 87 % CPU).
            _ = albumkit_spawn_close_from(&actions, 3)  // glibc 2.34 and later (Debian 12 has 2.36)
            let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
            let env =
                (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { (argv + env).forEach { free($0) } }
            var pid = pid_t()
            guard posix_spawn(&pid, executable, &actions, nil, argv, env) == 0 else {
                return Run(status: -1, stdout: "", stderr: "cannot run \(executable)")
            }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
            return Run(
                status: exit, stdout: (try? String(contentsOfFile: base + ".out", encoding: .utf8)) ?? "",
                stderr: (try? String(contentsOfFile: base + ".err", encoding: .utf8)) ?? "")
        }

        /// The `album` executable built next to the tests.
        static let album: String = {
            let candidates = [
                Bundle.main.executableURL?.deletingLastPathComponent(),
                URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
                Bundle.main.bundleURL.deletingLastPathComponent(),
                SharedServers.packageRoot.appendingPathComponent(".build/debug"),
            ].compactMap { $0?.appendingPathComponent("album").path }
            return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
        }()

        /// Starts `album ARGS` as another "machine": its own staging folder and temporary directory.
        static func startAlbum(_ arguments: [String], environment: [String: String], machine: URL) throws -> Process {
            try FileManager.default.createDirectory(at: machine, withIntermediateDirectories: true)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: album)
            process.arguments = arguments
            var environment = environment
            environment["TMPDIR"] = machine.path
            environment["ALBUMKIT_SHARED_STAGING_DIR"] = machine.appendingPathComponent("staging").path
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle(forWritingAtPath: "/dev/null")
            process.standardInput = FileHandle.nullDevice
            try process.run()
            return process
        }

        /// Waits until `path` exists (a paused saver wrote its marker); returns its contents.
        static func waitForFile(_ path: String, seconds: Double = 60) -> String? {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if let data = FileManager.default.contents(atPath: path), !data.isEmpty {
                    return String(decoding: data, as: UTF8.self)
                }
                usleep(20_000)
            }
            return nil
        }
    }

    func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async rethrows -> T {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
            "albumkit-shared-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        return try await body(url)
    }
#endif

#if os(Linux)
    /// The `AlbumError` code `body` throws, `nil` when it succeeds.
    func errorCode(_ body: () throws -> Any) -> AlbumError.Code? {
        do {
            _ = try body()
            return nil
        } catch { return (error as? AlbumError)?.code ?? AlbumError.Code(rawValue: "not an AlbumError: \(error)") }
    }

    /// The `AlbumError` code `body` throws, `nil` when it succeeds.
    func errorCode(_ body: () async throws -> Any) async -> AlbumError.Code? {
        do {
            _ = try await body()
            return nil
        } catch { return (error as? AlbumError)?.code ?? AlbumError.Code(rawValue: "not an AlbumError: \(error)") }
    }

    /// `Shell.run`'s children (the servers `start-store` starts among them) inherit no descriptor of
    /// the test process: a pipe another test held for its own child was inherited once, and that
    /// test waited for its end for ever.
    @Suite struct ShellSpawnTests {
        @Test func aChildInheritsNothingButItsStandardFiles() {
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)  // no O_CLOEXEC, as a pipe made for another child would be
            defer {
                close(ends[0])
                close(ends[1])
            }
            let listed = Shell.run("/bin/sh", ["-c", "ls /proc/$$/fd"])
            let open = Set(listed.stdout.split(separator: "\n").compactMap { Int32($0) })
            #expect(listed.status == 0 && open == [0, 1, 2], "\(listed.stdout)\(listed.stderr)")
        }
    }
#endif
