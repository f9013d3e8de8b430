import AlbumKitCore
import Foundation

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
        private static func runProcess(_ executable: String, _ arguments: [String], in directory: String?) throws
            -> Outcome
        {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try resolve(executable))
            process.arguments = arguments
            if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
            let out = Pipe()
            let err = Pipe()
            process.standardOutput = out
            process.standardError = err
            process.standardInput = FileHandle.nullDevice
            try process.run()
            // Drain stderr on another thread so neither pipe can fill up and block the child.
            let errData = Mailbox<Data>()
            Blocking.detach { errData.put(err.fileHandleForReading.readDataToEndOfFile()) }
            let outData = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Outcome(
                status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                stderr: String(decoding: errData.take(), as: UTF8.self))
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
