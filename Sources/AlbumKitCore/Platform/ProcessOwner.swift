import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Proves to other processes that this process is alive, across PID namespaces and containers.
///
/// Every process that writes into a library first creates its owner file `OWNERS/<token>` there and
/// holds an exclusive `flock` on it for as long as it runs; the kernel drops the lock when the
/// process dies, however it dies. Another process proves an owner dead by taking that lock itself.
/// Process ids are never compared, so a saver in another PID namespace (a container, Flatpak,
/// `unshare -p`) is seen as alive as long as it runs.
///
/// An owner file is removed only by a process that holds its lock after cleaning up what the dead
/// owner left, and a process creates and locks its file before writing anything that names its
/// token; so a token without an owner file belongs to a dead process. Any other doubt (an
/// unreadable owner file, a lock call that fails) counts as alive.
///
/// ```swift
/// try ProcessOwner.register(in: "/data/Photos.albumlibrary/owners")
/// ProcessOwner.isAlive(ProcessOwner.token, in: "/data/Photos.albumlibrary/owners")   // true
/// ```
package enum ProcessOwner {
    /// This process's token: unique across machines and namespaces, without dots or slashes,
    /// e.g. `"p4242-9f2c41d07a1b33e8"`.
    package static let token: String = {
        let random = UInt64.random(in: 0...UInt64.max)
        let hex = String(random, radix: 16)
        return "p\(getpid())-" + String(repeating: "0", count: 16 - hex.count) + hex
    }()

    /// Owner files this process holds locked, by owners directory. Never closed: the lock lives
    /// as long as the process.
    private static let held = Locked<[String: FileSystem.Descriptor]>([:])

    /// Creates (if needed) the owners directory and this process's locked owner file in it.
    /// Cheap after the first call for a directory.
    package static func register(in directory: String) throws(SystemError) {
        let outcome = held.withLock { (held: inout [String: FileSystem.Descriptor]) -> SystemError? in
            if held[directory] != nil { return nil }
            do throws(SystemError) {
                held[directory] = try createLockedFile(in: directory)
                return nil
            } catch {
                return error
            }
        }
        if let outcome { throw outcome }
    }

    private static func createLockedFile(in directory: String) throws(SystemError) -> FileSystem.Descriptor {
        try FileSystem.makeDirectory(atPath: directory)
        // A process reaping dead owners may unlink the file between our open and our lock: retry
        // until the locked file is the one with the name.
        let path = directory + "/" + token
        for _ in 0..<100 {
            let file = try FileSystem.openLockFile(path)
            do throws(SystemError) {
                try FileSystem.lock(file, wait: false)
            } catch {
                FileSystem.close(file)
                throw error
            }
            if FileSystem.isSameFile(file, path) { return file }
            FileSystem.close(file)
        }
        throw SystemError("flock", path: path, errno: EAGAIN)
    }

    /// Whether the process that owns `token` may still be running. `false` only when proved dead:
    /// its owner file is gone, or its lock can be taken.
    package static func isAlive(_ token: String, in directory: String) -> Bool {
        if token == self.token { return true }
        guard isWellFormed(token) else { return true }
        let path = directory + "/" + token
        let file: FileSystem.Descriptor
        do { file = try FileSystem.openLockFile(path, create: false) } catch {
            return error.errno != ENOENT
        }
        defer { FileSystem.close(file) }
        do { try FileSystem.lock(file, wait: false) } catch { return true }
        return false  // we hold its lock now: nobody else does; closing releases it
    }

    /// Removes the owner file of a dead owner once what it left has been cleaned up. Does nothing
    /// when the owner turns out to be alive.
    package static func forget(_ token: String, in directory: String) {
        guard token != self.token, isWellFormed(token) else { return }
        let path = directory + "/" + token
        guard let file = try? FileSystem.openLockFile(path, create: false) else { return }
        defer { FileSystem.close(file) }
        guard (try? FileSystem.lock(file, wait: false)) != nil, FileSystem.isSameFile(file, path) else { return }
        try? FileSystem.unlink(path)
    }

    /// The tokens with an owner file in `directory` (live or dead).
    package static func owners(in directory: String) -> [String] {
        ((try? FileSystem.names(inDirectoryAt: directory)) ?? []).filter(isWellFormed)
    }

    /// Tokens look like `p<pid>-<16 hex digits>`.
    static func isWellFormed(_ token: String) -> Bool {
        token.hasPrefix("p") && token.count <= 40 && !token.contains(".") && !token.contains("/")
            && token.contains("-")
    }
}
