import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether another program is still writing a file: what a watched folder asks before it imports
/// a file whose size and time have stopped changing (a camera, a card reader or `cp` pausing
/// between two writes).
extension FileSystem {
    /// A file as the kernel knows it, whatever its name: its file system and inode.
    package struct FileIdentity: Sendable, Hashable {
        package let device: UInt64
        package let inode: UInt64

        package init(device: UInt64, inode: UInt64) {
            self.device = device
            self.inode = inode
        }

        package init(_ status: FileStatus) { self.init(device: status.device, inode: status.inode) }
    }

    /// Which of `files` some process holds open for writing (`O_WRONLY` or `O_RDWR`), as far as
    /// this process may look: on Linux, the descriptors in `/proc/PID/fd` of every process it may
    /// read (its own user's; every process as root), with their open flags from
    /// `/proc/PID/fdinfo`. `nil` where there is no `/proc` (macOS): the caller then has only the
    /// file's size and time to go by.
    ///
    /// ```swift
    /// let open = FileSystem.filesOpenForWriting(among: [FileSystem.FileIdentity(status)]) ?? []
    /// if open.isEmpty { importNow() }
    /// ```
    package static func filesOpenForWriting(among files: Set<FileIdentity>) -> Set<FileIdentity>? {
        guard !files.isEmpty else { return [] }
        // No /proc (another system, or a container without it): nothing to ask.
        guard let processes = try? names(inDirectoryAt: "/proc") else { return nil }
        var open: Set<FileIdentity> = []
        for process in processes where process.allSatisfy(\.isNumber) {
            // A process that ended meanwhile, or one of another user: nothing it holds can be seen.
            guard let descriptors = try? names(inDirectoryAt: "/proc/\(process)/fd") else { continue }
            for descriptor in descriptors {
                guard let status = fileStatus(atPath: "/proc/\(process)/fd/\(descriptor)"),
                    status.kind == .regular
                else { continue }
                let identity = FileIdentity(status)
                guard files.contains(identity), !open.contains(identity) else { continue }
                // Unreadable flags (the process ended): it no longer writes.
                if let flags = openFlags(process: process, descriptor: descriptor),
                    flags & O_ACCMODE == O_WRONLY || flags & O_ACCMODE == O_RDWR
                {
                    open.insert(identity)
                }
            }
        }
        return open
    }

    /// The `flags:` line of `/proc/PID/fdinfo/FD` (octal), or `nil` when it cannot be read.
    private static func openFlags(process: String, descriptor: String) -> Int32? {
        let path = "/proc/\(process)/fdinfo/\(descriptor)"
        let fd = retrying { open(path, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        let file = Descriptor(fd: fd, path: path)
        var buffer = [UInt8](repeating: 0, count: 512)
        // Unreadable (the process ended between the two calls): nothing known of its flags.
        guard let count = try? buffer.withUnsafeMutableBytes({ try FileSystem.read(file, into: $0, at: 0) }),
            count > 0
        else { return nil }
        let text = String(decoding: buffer[..<count], as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix("flags:") {
            let digits = line.dropFirst("flags:".count).filter { $0 != " " && $0 != "\t" }
            return Int32(String(digits), radix: 8)
        }
        return nil
    }
}
