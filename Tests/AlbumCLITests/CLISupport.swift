import AlbumKitCore
import AlbumKitMedia
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the built `album` binary as a real process.
enum CLI {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let examples = packageRoot.appendingPathComponent("Examples")

    /// Whether `album` hashes on the processor's SHA instructions here, so that it never loads
    /// libcrypto to save (the same check as the library's; `SHA256HasherTests` hold it against
    /// /proc/cpuinfo).
    static var processorHashes: Bool {
        #if canImport(CryptoKit)
            false
        #else
            SHA256Hasher.runsOnProcessor
        #endif
    }

    /// The `album` executable next to the test bundle.
    static let binary: URL = {
        let candidates = [
            Bundle.main.executableURL?.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
        ].compactMap { $0?.appendingPathComponent("album") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }()

    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }

        func json() -> Any? { try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) }
        func jsonLines() -> [[String: Any]] {
            lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
    }

    /// Runs `album ARGS` with `environment` added to a clean environment, feeding `stdin`, in
    /// `directory` (the test's own when `nil`).
    static func run(
        _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil, stdinData: Data? = nil,
        directory: URL? = nil
    ) throws -> Run {
        let process = try start(
            arguments, environment: environment, stdin: stdinData ?? stdin.map { Data($0.utf8) }, directory: directory)
        let out = process.standardOutput as! Pipe
        let err = process.standardError as! Pipe
        let outData = Locked(Data())
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            let data = out.fileHandleForReading.readDataToEndOfFile()
            outData.withLock { $0 = data }
            group.leave()
        }
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: outData.withLock { $0 }, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    static func start(
        _ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil, directory: URL? = nil
    ) throws -> Process {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var env = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()]
        env.merge(environment) { $1 }
        process.environment = env
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try? input.fileHandleForWriting.close()
        return process
    }

    static func withTemporaryDirectory<T>(_ body: (URL) throws -> T) rethrows -> T {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("album-cli-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        return try body(url)
    }

    static func sha256(_ url: URL) -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        p.arguments = [url.path]
        let pipe = Pipe()
        p.standardOutput = pipe
        try! p.run()
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(String(decoding: out, as: UTF8.self).prefix(64))
    }
}
