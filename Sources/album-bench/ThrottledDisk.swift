import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A slow disk made for the bench: an ext4 file system on a loop device whose writes the kernel's
/// block I/O throttle holds to `bytesPerSecond` and `writesPerSecond`, as a USB stick or a memory
/// card would. Every write to the device is held, whoever makes it: the copying process, the
/// kernel's writeback threads, the file system's journal (the limit is set on cgroup v1's root
/// group, which they all belong to, for this device alone). The device's flushes also reach the
/// disk its backing file is on.
///
/// Needs root, `losetup`, `mkfs.ext4` and cgroup v1's block I/O controller; ``remove()`` takes it
/// all down again.
///
/// ```swift
/// let disk = try ThrottledDisk(in: scratch, bytesPerSecond: 20 << 20, writesPerSecond: 200)
/// defer { disk.remove() }
/// ```
struct ThrottledDisk {
    /// Where the throttled file system is mounted.
    let mountPoint: URL
    private let backing: URL
    private let device: String
    private let numbers: String

    private static let throttle = "/sys/fs/cgroup/blkio/blkio.throttle."

    /// Makes the device under `directory` (a sparse backing file of `gigabytes`), its file system
    /// and its limits; throws, having undone what it made, when the machine cannot.
    init(in directory: URL, gigabytes: Int = 4, bytesPerSecond: Int, writesPerSecond: Int) throws {
        #if os(Linux)
            guard geteuid() == 0 else {
                throw BenchFailure("needs root (a loop device, a mount and the block I/O throttle)")
            }
            guard FileManager.default.isWritableFile(atPath: Self.throttle + "write_bps_device") else {
                throw BenchFailure(
                    "needs cgroup v1's block I/O throttle (\(Self.throttle)write_bps_device); cgroup v2 cannot limit its root group"
                )
            }
            for tool in ["losetup", "mkfs.ext4", "mount", "umount"] where !Shell.has(tool) {
                throw BenchFailure("needs \(tool)")
            }
            Self.removeLeftovers()
            backing = directory.appendingPathComponent("slow-disk.img")
            mountPoint = directory.appendingPathComponent("slow-disk")
            try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: backing.path, contents: nil),
                truncate(backing.path, off_t(gigabytes) << 30) == 0
            else { throw BenchFailure("cannot make \(backing.path): \(String(cString: strerror(errno)))") }
            device = try Self.run("losetup", ["--find", "--show", backing.path])
            let name = URL(fileURLWithPath: device).lastPathComponent
            numbers =
                (try? String(contentsOfFile: "/sys/block/\(name)/dev", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            do {
                guard numbers.contains(":") else { throw BenchFailure("no device numbers for \(device)") }
                // The inode tables and journal written now, not by a kernel thread during the rows.
                _ = try Self.run(
                    "mkfs.ext4", ["-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0", device])
                _ = try Self.run("mount", [device, mountPoint.path])
                try Self.limit("\(numbers) \(bytesPerSecond)", "write_bps_device")
                try Self.limit("\(numbers) \(writesPerSecond)", "write_iops_device")
            } catch {
                remove()
                throw error
            }
        #else
            throw BenchFailure("a throttled loop device needs Linux")
        #endif
    }

    /// Lifts the limits, unmounts and detaches the device, and deletes its backing file.
    func remove() {
        #if os(Linux)
            if numbers.contains(":") {
                // A limit of 0 removes the device's rule.
                try? Self.limit("\(numbers) 0", "write_bps_device")  // no rule is left to remove at worst
                try? Self.limit("\(numbers) 0", "write_iops_device")  // no rule is left to remove at worst
            }
            _ = try? Self.run("umount", [mountPoint.path])  // not mounted when the set-up failed first
            _ = try? Self.run("losetup", ["--detach", device])  // detached already at worst
            try? FileManager.default.removeItem(at: backing)  // in the scratch folder, removed with it
        #endif
    }

    /// Takes down the devices of runs that were killed before they could (`kill -9`, a crash):
    /// their limits would hold whoever attaches that loop device next. A device is one of them
    /// when its backing file is a row's (`…/album-bench-PID/slowdisk/slow-disk.img`) and process
    /// PID is gone.
    private static func removeLeftovers() {
        #if os(Linux)
            guard let listing = try? run("losetup", ["--list", "--noheadings", "--raw", "--output", "NAME,BACK-FILE"])
            else { return }
            for line in listing.split(separator: "\n") {
                let fields = line.split(separator: " ", maxSplits: 1).map(String.init)
                guard fields.count == 2, fields[1].hasSuffix("/slowdisk/slow-disk.img"),
                    let run = fields[1].split(separator: "/").first(where: { $0.hasPrefix("album-bench-") }),
                    let pid = Int32(run.dropFirst("album-bench-".count)), kill(pid, 0) != 0, errno == ESRCH
                else { continue }
                let backing = URL(fileURLWithPath: fields[1])
                let numbers =
                    (try? String(
                        contentsOfFile: "/sys/block/\(URL(fileURLWithPath: fields[0]).lastPathComponent)/dev",
                        encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
                ThrottledDisk(
                    mountPoint: backing.deletingLastPathComponent().appendingPathComponent("slow-disk"),
                    backing: backing, device: fields[0], numbers: numbers
                ).remove()
            }
        #endif
    }

    private init(mountPoint: URL, backing: URL, device: String, numbers: String) {
        self.mountPoint = mountPoint
        self.backing = backing
        self.device = device
        self.numbers = numbers
    }

    private static func limit(_ rule: String, _ file: String) throws {
        guard (try? rule.write(toFile: throttle + file, atomically: false, encoding: .utf8)) != nil else {
            throw BenchFailure("cannot write \"\(rule)\" to \(throttle)\(file)")
        }
    }

    private static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let outcome = try Shell.run(tool, arguments)
        guard outcome.status == 0 else {
            throw BenchFailure("\(tool) \(arguments.joined(separator: " ")) failed: \(outcome.stderr.prefix(300))")
        }
        return outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
