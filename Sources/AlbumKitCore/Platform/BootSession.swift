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
    /// `kern.bootsessionuuid`; the configuration's ``LibraryConfiguration/bootSession`` when set, for
    /// tests that simulate a restart); `"unknown"` where neither can be read, which every boot shares.
    package static let id: String = {
        if let simulated = LibraryConfiguration.current.bootSession, !simulated.isEmpty { return simulated }
        #if canImport(Darwin)
            var size = 0
            guard sysctlbyname("kern.bootsessionuuid", nil, &size, nil, 0) == 0, size > 1 else { return "unknown" }
            var bytes = [CChar](repeating: 0, count: size)
            guard sysctlbyname("kern.bootsessionuuid", &bytes, &size, nil, 0) == 0 else { return "unknown" }
            return String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
            // No procfs: "unknown", as documented above.
            guard let (file, size) = try? FileSystem.openForReading("/proc/sys/kernel/random/boot_id") else {
                return "unknown"
            }
            // An unreadable boot id is "unknown" too.
            let bytes = (try? FileSystem.readAll(file, from: 0, size: max(size, 64))) ?? []
            let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return text.isEmpty ? "unknown" : text
        #endif
    }()

    /// This boot and the mount holding `path` (Linux): a file system cut off and mounted again (a
    /// shutdown, a disk unplugged) loses unflushed writes as a power loss does, within one boot.
    ///
    /// Where the kernel names mounts uniquely (6.8 and later) the session is the boot and the
    /// identifier of the mount `path` is on, never reused: mount ids and device numbers come back
    /// the same after an unmount and a mount. Other mounts coming and going (a folder bound
    /// elsewhere on the same disk, a container starting) leave it as it was: it once listed every
    /// mount of the device, so a bind mount made anywhere on the disk made every index look torn
    /// and silently rebuilt. On older kernels: the mount ids of the device in
    /// `/proc/self/mountinfo`, which is all they give.
    ///
    /// ```swift
    /// let session = BootSession.session(forFileAt: "/data/Photos.albumlibrary/catalog.sqlite")
    /// ```
    package static func session(forFileAt path: String) -> String {
        #if os(Linux)
            // A file not made yet is on its folder's mount.
            let folder = (path as NSString).deletingLastPathComponent
            guard
                // Unknown mount: the boot session alone (see above).
                let (status, onMount) = try? FileSystem.status(atPath: path).map({ ($0, path) })
                    ?? FileSystem.status(atPath: folder).map({ ($0, folder) })
            else { return id }
            // Unavailable (an older kernel): the mount ids of the device, below.
            if let unique = (try? FileSystem.uniqueMountID(atPath: onMount)).flatMap({ $0 }) {
                return id + "/m\(unique)"
            }
            // No mount table: the boot session alone, as for an unknown mount.
            guard let (file, _) = try? FileSystem.openForReading("/proc/self/mountinfo") else { return id }
            defer { FileSystem.close(file) }
            // Unreadable mounts: the boot session and no device (still this boot's).
            let bytes = (try? FileSystem.readToEnd(file)) ?? []
            let device = "\(major(status.st_dev)):\(minor(status.st_dev))"
            let mounts = String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line -> String? in
                let fields = line.split(separator: " ")
                return fields.count > 2 && fields[2] == device ? String(fields[0]) : nil
            }
            return id + "/" + mounts.sorted().joined(separator: ",")
        #else
            return id
        #endif
    }
}

#if os(Linux)
    private func major(_ device: UInt) -> UInt { (device >> 8) & 0xFFF | (device >> 32) & ~0xFFF }
    private func minor(_ device: UInt) -> UInt { device & 0xFF | (device >> 12) & ~0xFF }
#endif
