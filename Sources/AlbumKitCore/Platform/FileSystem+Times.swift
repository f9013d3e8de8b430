import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileSystem {
    /// Sets an open file's modification (and access) time to `date`.
    package static func setModificationTime(_ file: Descriptor, to date: Date) throws(SystemError) {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let nanoseconds = Int((date.timeIntervalSince1970 - seconds) * 1e9)
        let time = timespec(tv_sec: Int(seconds), tv_nsec: nanoseconds)
        var times = [time, time]
        guard futimens(file.fd, &times) == 0 else { throw SystemError("futimens", path: file.path, errno: errno) }
    }

}
