import Foundation

/// Identifies a running process across pid reuse (pid + kernel start time), so a library can tell
/// whether the owner of pending work is still alive or crashed.
package enum ProcessToken {
    /// This process's token, e.g. `"4242.1234567"`.
    package static let current: String = token(for: getpid()) ?? "\(getpid()).0"

    /// Whether the process that wrote `token` is still running. Unknown formats count as alive.
    package static func isAlive(_ token: String) -> Bool {
        let parts = token.split(separator: ".")
        guard parts.count == 2, let pid = Int32(parts[0]) else { return true }
        guard let now = self.token(for: pid) else {
            #if os(Linux)
                return false  // no /proc/<pid>: gone
            #else
                return kill(pid, 0) == 0 || errno == EPERM
            #endif
        }
        return now == token
    }

    private static func token(for pid: Int32) -> String? {
        #if os(Linux)
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // Fields after the command name; start time is field 22 overall, index 19 here.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 19 else { return nil }
            return "\(pid).\(fields[19])"
        #else
            return kill(pid, 0) == 0 ? "\(pid).0" : nil
        #endif
    }
}
