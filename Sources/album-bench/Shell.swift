import AlbumKitCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs external programs (cp, sync, exiftool, git) for baselines and machine facts.
enum Shell {
    /// The result of a finished process.
    struct Outcome: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `executable` with `arguments`, capturing its output. `executable` is looked up in
    /// `PATH` when it has no slash.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], in directory: String? = nil) throws -> Outcome {
        #if !os(macOS) && !os(Linux)
            // iOS, tvOS and visionOS have no `Process`: the bench runs on macOS and Linux only.
            throw BenchFailure("album-bench cannot start \(executable) on this platform")
        #else
            return try runProcess(executable, arguments, in: directory)
        #endif
    }

    #if os(macOS) || os(Linux)
        /// `posix_spawn` and `waitpid`, output into unlinked files: Foundation's `Process` was seen
        /// to miss a child's exit under load and wait for ever (`waitUntilExit` beside a zombie
        /// `bash`), which stopped a whole bench run; files, unlike pipes, never fill up either.
        private static func runProcess(_ executable: String, _ arguments: [String], in directory: String?) throws
            -> Outcome
        {
            let path = try resolve(executable)
            let out = try unlinkedFile("stdout")
            defer { close(out) }
            let err = try unlinkedFile("stderr")
            defer { close(err) }
            // In another folder through the shell's `cd` (posix_spawn's chdir action is not in every libc).
            let command =
                directory.map { ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", $0, path] + arguments }
                ?? [path] + arguments
            let status = try Spawn.spawnAndWait(command, output: out, errors: err).status
            // Exited: its code; killed by a signal: 128 + the signal, as a shell says.
            let code = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + status & 0x7f
            return Outcome(status: code, stdout: contents(of: out), stderr: contents(of: err))
        }

        /// A new file for a program's output, already unlinked so nothing is left behind.
        private static func unlinkedFile(_ name: String) throws -> Int32 {
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("album-bench-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).\(name)").path
            let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw BenchFailure("cannot create \(path) for a program's output") }
            unlink(path)
            return descriptor
        }

        /// All that was written to `descriptor`, as text.
        private static func contents(of descriptor: Int32) -> String {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            var offset: off_t = 0
            while true {
                let count = pread(descriptor, &chunk, chunk.count, offset)
                guard count > 0 else { break }
                bytes += chunk.prefix(count)
                offset += off_t(count)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    #endif

    /// Runs a program and returns its trimmed standard output, or `nil` when it fails.
    static func output(_ executable: String, _ arguments: [String], in directory: String? = nil) -> String? {
        guard let outcome = try? run(executable, arguments, in: directory), outcome.status == 0 else { return nil }
        return outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether `name` is an executable in `PATH`.
    static func has(_ name: String) -> Bool { (try? resolve(name)) != nil }

    /// The full path of `name`, searched in `PATH`.
    static func resolve(_ name: String) throws -> String {
        if name.contains("/") { return name }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw BenchFailure("\(name) is not installed (not found in PATH)")
    }
}

/// A failure that stops a scenario, with a message for the table.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
