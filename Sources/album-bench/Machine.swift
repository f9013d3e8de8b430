import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The machine the numbers were measured on.
struct Machine: Codable, Sendable {
    var cpuModel: String
    var cores: Int
    var memoryGB: Double
    var kernel: String
    var os: String
    /// The scratch directory and its file system (type, device, mount options).
    var scratchDirectory: String
    var fileSystem: String
    var swiftVersion: String
    /// `/proc/loadavg` when the run started: other work on the machine skews the numbers.
    var loadAverage: String

    static func describe(scratch: String) -> Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model =
            cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map(String.init) ?? "" }?
            .trimmingCharacters(in: .whitespaces) ?? "unknown"
        var name = utsname()
        uname(&name)
        let kernel = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let osRelease = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? ""
        let os =
            osRelease.split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }
            .map { $0.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            ?? "unknown"
        let fileSystem =
            Shell.output("findmnt", ["-n", "-o", "FSTYPE,SOURCE,OPTIONS", "--target", scratch])
            ?? Shell.output("stat", ["-f", "-c", "%T", scratch]) ?? "unknown"
        let swift =
            Shell.output("swift", ["--version"])?.split(separator: "\n").first.map(String.init) ?? "unknown"
        let load =
            (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3)
            .joined(separator: " ") ?? "unknown"
        return Machine(
            cpuModel: model, cores: ProcessInfo.processInfo.activeProcessorCount,
            memoryGB: (Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824 * 10).rounded() / 10,
            kernel: kernel, os: os, scratchDirectory: scratch, fileSystem: fileSystem, swiftVersion: swift,
            loadAverage: load)
    }
}
