import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which boot of the machine this is: the same for every process until the machine restarts,
/// different after. A file written without flushes by an earlier boot may have been torn by a
/// power loss; one written in this boot is whole (the kernel writes it even if its process dies).
///
/// ```swift
/// if recordedBoot != BootSession.id { rebuild() }
/// ```
package enum BootSession {
    /// The boot's identifier (Linux: `/proc/sys/kernel/random/boot_id`; Darwin:
    /// `kern.bootsessionuuid`; `ALBUMKIT_BOOT_SESSION` when set, for tests that simulate a restart);
    /// `"unknown"` where neither can be read, which every boot shares.
    package static let id: String = {
        // A test that recreates the disk as a power loss leaves it also restarts the machine.
        if let simulated = ProcessInfo.processInfo.environment["ALBUMKIT_BOOT_SESSION"], !simulated.isEmpty {
            return simulated
        }
        #if canImport(Darwin)
            var size = 0
            guard sysctlbyname("kern.bootsessionuuid", nil, &size, nil, 0) == 0, size > 1 else { return "unknown" }
            var bytes = [CChar](repeating: 0, count: size)
            guard sysctlbyname("kern.bootsessionuuid", &bytes, &size, nil, 0) == 0 else { return "unknown" }
            return String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
            guard let (file, size) = try? FileSystem.openForReading("/proc/sys/kernel/random/boot_id") else {
                return "unknown"
            }
            defer { FileSystem.close(file) }
            let bytes = (try? FileSystem.readAll(file, from: 0, size: max(size, 64))) ?? []
            let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return text.isEmpty ? "unknown" : text
        #endif
    }()
}
