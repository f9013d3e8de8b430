import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Another process keeping a disk busy while a row is measured: `dd` rewriting a 256 MiB file
/// through the page cache and then `fsync`ing it, over and over, as a backup or a download writing
/// beside the import would. (A neighbour of 1 MiB synchronous writes, `oflag=dsync`, slowed neither
/// the batch nor `cp` + `sync` measurably on this machine's disk: the writeback it leaves is what
/// makes a flush wait.)
///
/// ```swift
/// let neighbour = try BusyNeighbour(writingIn: scratch)
/// defer { neighbour.stop() }
/// ```
final class BusyNeighbour {
    private var group: pid_t = 0

    /// Starts writing into a file in `directory` and gives it a moment to be under way.
    init(writingIn directory: URL) throws {
        #if os(Linux) || os(macOS)
            let file = directory.appendingPathComponent("neighbour-\(getpid()).bin").path
            let script =
                "while :; do dd if=/dev/zero of=\"$1\" bs=1M count=256 conv=notrunc,fsync status=none || exit 1; done"
            #if canImport(Darwin)
                var attributes: posix_spawnattr_t?  // an opaque pointer on Darwin
            #else
                var attributes = posix_spawnattr_t()
            #endif
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            // Its own process group, so that `stop` ends the loop and the `dd` it is running alike.
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
            posix_spawnattr_setpgroup(&attributes, 0)
            let words: [String] = ["/bin/sh", "-c", script, "sh", file]
            let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            var pid = pid_t()
            let spawned = posix_spawn(&pid, "/bin/sh", nil, &attributes, argv, environ)
            guard spawned == 0 else {
                throw BenchFailure("cannot start the busy neighbour: \(String(cString: strerror(spawned)))")
            }
            group = pid
            usleep(300_000)
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                group = 0
                throw BenchFailure("the busy neighbour stopped at once (status \(status)); is dd installed?")
            }
        #else
            throw BenchFailure("a busy neighbour needs a POSIX system")
        #endif
    }

    /// Stops the writing and waits for it.
    func stop() {
        guard group > 0 else { return }
        kill(-group, SIGKILL)
        var status: Int32 = 0
        while waitpid(group, &status, 0) < 0, errno == EINTR {}
        group = 0
    }

    deinit { stop() }
}
