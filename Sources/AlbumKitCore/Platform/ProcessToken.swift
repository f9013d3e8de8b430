import Foundation

/// Identifies a running process across pid reuse (pid + kernel start time), so a library can tell
/// whether the owner of pending work is still alive or crashed.
package enum ProcessToken {
    /// This process's token, e.g. `"4242.1234567"`.
    package static let current: String = token(for: getpid()) ?? "\(getpid()).0"

    /// Whether the process that wrote `token` is still running. Only a process that is provably gone
    /// (no such pid, or the pid now belongs to a process started at another time) counts as dead.
    package static func isAlive(_ token: String) -> Bool {
        let parts = token.split(separator: ".")
        guard parts.count == 2, let pid = Int32(parts[0]) else { return true }
        if kill(pid, 0) != 0 && errno == ESRCH { return false }
        guard let now = self.token(for: pid) else { return true }
        return now == token
    }

    private static func token(for pid: Int32) -> String? {
        #if os(Linux)
            // Plain syscalls: procfs files report a size of 0.
            let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return nil }
            let stat = String(decoding: buffer[0..<count], as: UTF8.self)
            guard let paren = stat.lastIndex(of: ")") else { return nil }
            // Fields after the command name; the start time is field 22 overall, index 19 here.
            let fields = stat[stat.index(after: paren)...].split(separator: " ")
            guard fields.count > 19 else { return nil }
            return "\(pid).\(fields[19])"
        #else
            return kill(pid, 0) == 0 ? "\(pid).0" : nil
        #endif
    }
}
