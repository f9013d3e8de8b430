import AlbumKitMedia
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if os(Linux) || os(Android)
    internal import CShims
#endif

extension FileSystem {
    /// `RLIMIT_NOFILE` as `getrlimit` takes it (an enum on Glibc, a plain macro on Darwin).
    #if canImport(Darwin)
        private static let openFileResource = RLIMIT_NOFILE
    #else
        private static let openFileResource = Int32(RLIMIT_NOFILE.rawValue)
    #endif

    /// Open files a save may hold at once: the soft `RLIMIT_NOFILE` less a reserve for SQLite, the
    /// journal, owner locks and the caller's own files.
    package static var descriptorBudget: Int {
        guard let limit = openFileLimit else { return 256 }
        return max(4, limit - 48)
    }

    /// The soft `RLIMIT_NOFILE` (`ulimit -n`): how many descriptors this process may have open;
    /// `nil` when it cannot be read.
    package static var openFileLimit: Int? {
        var limit = rlimit()
        guard getrlimit(openFileResource, &limit) == 0 else { return nil }
        return Int(clamping: min(limit.rlim_cur, 1 << 20))
    }

    /// Raises the soft open-file limit to the hard limit (what a command-line tool does at start, so
    /// a large batch is not cut short by a low default).
    package static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(openFileResource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(openFileResource, &limit)
    }

    /// Grows this process's descriptor table to hold `count` descriptors (within the open-file
    /// limit) now, instead of as they are opened. The kernel grows the table by doubling, and in a
    /// process with several threads every growth waits for an RCU grace period (10–12 ms measured
    /// here): a batch whose first chunk opened a hundred staged files paid it at 64, 128 and 256
    /// descriptors, with every thread stalled. In a process with one thread nothing waits.
    ///
    /// ```swift
    /// FileSystem.reserveDescriptorTable(for: 1024)   // first thing in main
    /// ```
    package static func reserveDescriptorTable(for count: Int) {
        let highest = Int32(clamping: min(count, descriptorBudget + 48) - 1)
        guard highest > 2 else { return }
        let probe = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard probe >= 0 else { return }
        let high = fcntl(probe, F_DUPFD_CLOEXEC, highest)
        if high >= 0 { _ = Glibc_close(high) }
        _ = Glibc_close(probe)
    }
}
