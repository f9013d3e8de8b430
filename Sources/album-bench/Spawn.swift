import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a program as its own process and times it from `posix_spawn` to `waitpid`: the whole
/// process, start-up and exit included, with no pipes or Foundation `Process` in the way.
enum Spawn {
    /// Runs `executable` (a path, or a name looked up in `PATH`) with `arguments`, standard input
    /// and output on `/dev/null`, and standard error in a file so a failure can say why.
    /// Returns the wall time in seconds; throws when the program exits non-zero.
    @discardableResult
    static func timed(_ executable: String, _ arguments: [String]) throws -> Double {
        try run(executable, arguments).seconds
    }

    /// Like `timed`, and also returns the page faults the process took (its minor and major faults,
    /// as `wait4` reports them): a start-up cost that, unlike time, does not vary from run to run;
    /// and its peak resident memory in KiB (`ru_maxrss`, its own or its largest child's).
    static func run(
        _ executable: String, _ arguments: [String]
    ) throws -> (seconds: Double, pageFaults: Int, peakKB: Int) {
        #if !os(macOS) && !os(Linux)
            // tvOS has no posix_spawn, iOS apps may not start programs: the bench runs on macOS and Linux.
            throw BenchFailure("album-bench cannot start \(executable) on this platform")
        #else
            return try spawnTimed(executable, arguments)
        #endif
    }

    #if os(macOS) || os(Linux)
        /// Every program's standard error, one file for the whole run (appended to; read when a
        /// program fails), already unlinked so nothing is left behind.
        private static let errorLog: Int32 = {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("album-bench-\(getpid()).stderr")
                .path
            let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o600)
            unlink(path)
            return descriptor
        }()

        private static func spawnTimed(
            _ executable: String, _ arguments: [String]
        ) throws -> (seconds: Double, pageFaults: Int, peakKB: Int) {
            let path = try Shell.resolve(executable)
            guard errorLog >= 0 else { throw BenchFailure("cannot create a file for the programs' standard error") }
            // Emptied only when the last program wrote to it: no file is created or truncated in the
            // timed part of a run (creating one cost 0.3–0.6 ms per process, in every row's timing).
            if lseek(errorLog, 0, SEEK_END) > 0 { _ = ftruncate(errorLog, 0) }
            let (status, usage, seconds) = try spawnAndWait([path] + arguments, output: nil, errors: errorLog)
            guard status == 0 else {
                var bytes = [UInt8](repeating: 0, count: 4096)
                let count = max(0, pread(errorLog, &bytes, bytes.count, 0))
                let message = String(decoding: bytes.prefix(count), as: UTF8.self)
                throw BenchFailure(
                    "\(executable) \(arguments.prefix(4).joined(separator: " "))… failed (status \(status)): "
                        + message.prefix(400))
            }
            #if canImport(Darwin)
                let peakKB = Int(usage.ru_maxrss) / 1024  // bytes on Darwin
            #else
                let peakKB = Int(usage.ru_maxrss)  // kilobytes on Linux
            #endif
            return (seconds, Int(usage.ru_minflt) + Int(usage.ru_majflt), peakKB)
        }
    #endif

    #if os(macOS) || os(Linux)
        /// Runs `command` (its first element a path), standard input on `/dev/null`, standard output
        /// on `output` (`/dev/null` when `nil`) and standard error on `errors`; waits for it with
        /// `wait4`. Returns its wait status, its resource use, and the seconds from `posix_spawn` to
        /// its end.
        static func spawnAndWait(_ command: [String], output: Int32?, errors: Int32) throws
            -> (status: Int32, usage: rusage, seconds: Double)
        {
            #if canImport(Darwin)
                var actions: posix_spawn_file_actions_t?  // an opaque pointer on Darwin
            #else
                var actions = posix_spawn_file_actions_t()
            #endif
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            if let output {
                posix_spawn_file_actions_adddup2(&actions, output, 1)
            } else {
                posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            }
            posix_spawn_file_actions_adddup2(&actions, errors, 2)
            let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            var pid = pid_t()
            let start = Statistics.now()
            let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
            guard spawned == 0 else {
                throw BenchFailure("cannot start \(command[0]): \(String(cString: strerror(spawned)))")
            }
            var status: Int32 = 0
            var usage = rusage()
            while wait4(pid, &status, 0, &usage) < 0 {
                guard errno == EINTR else { throw BenchFailure("wait4 failed for \(command[0])") }
            }
            return (status, usage, Statistics.now() - start)
        }
    #endif

    /// The `album` executable built next to this one (`swift build -c release` builds both).
    static func albumExecutable() throws -> String {
        let me =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let album = URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("album").path
        guard FileManager.default.isExecutableFile(atPath: album) else {
            throw BenchFailure("no `album` next to album-bench: run `swift build -c release` (all products) first")
        }
        return album
    }
}
