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
/// An owner file says what its owner may have left to clean up: its first line (``formatLine``)
/// says the file is this format, and the line ``hiddenStagingLine`` is added (and flushed, with the
/// folder) before the owner gives any staged file a hidden name (where `O_TMPFILE` is missing). So
/// a dead owner's hidden files are looked for only when its file has that line, or lacks the first
/// one (an older version's file, or one whose first line a power loss took): opening a library
/// then need not list every folder of its photos.
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

    /// The first line of every owner file this version writes.
    static let formatLine = Array("albumkit-owner 1\n".utf8)
    /// The line an owner adds to its file, flushed, before it stages any file under a hidden name.
    static let hiddenStagingLine = Array("hidden-staging\n".utf8)
    /// Owners directories whose owner file has ``hiddenStagingLine``, durably.
    private static let notedHiddenStaging = Locked<Set<String>>([])

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
        // Never made through a link put where the folder goes: this process's owner file and
        // publishing list would be written wherever it leads, outside the library.
        if FileSystem.fileStatus(atPath: directory, following: false)?.kind == .symbolicLink {
            throw SystemError("open", path: directory, errno: ELOOP)
        }
        // A process reaping dead owners may lock the file between our open and our lock (it takes
        // it for a dead owner's) and unlink it: retry until the locked file is the one with the name.
        let path = directory + "/" + token
        for _ in 0..<100 {
            let file = try FileSystem.openLockFile(path)
            do throws(SystemError) {
                try FileSystem.lock(file, wait: false)
            } catch {
                FileSystem.close(file)
                guard error.errno == EAGAIN || error.errno == EWOULDBLOCK else { throw error }
                usleep(1_000)  // the reaper holds it only while it removes it
                continue
            }
            if FileSystem.isSameFile(file, path) {
                do throws(SystemError) { try FileSystem.write(file, formatLine) } catch {
                    FileSystem.close(file)
                    throw error
                }
                return file
            }
            FileSystem.close(file)
        }
        throw SystemError("flock", path: path, errno: EAGAIN)
    }

    /// Records, durably, in this process's owner file in `directory` that it stages files under
    /// hidden names, so recovery looks for them should it die. Call before the first such name
    /// exists; cheap after the first call for a directory.
    package static func noteHiddenStaging(in directory: String) throws(SystemError) {
        try register(in: directory)
        guard let file = held.withLock({ $0[directory] }) else { return }
        let failure = notedHiddenStaging.withLock { (noted: inout Set<String>) -> SystemError? in
            // Under the lock: no thread stages a hidden file before the line is durable.
            guard !noted.contains(directory) else { return nil }
            do throws(SystemError) {
                try FileSystem.write(file, hiddenStagingLine)
                try FileSystem.fsync(file)
                let folder = try FileSystem.openDirectory(directory)
                try FileSystem.fsync(folder)  // the owner file's name, too
                noted.insert(directory)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Whether the owner `token` (in `directory`) may have left files staged under hidden names:
    /// `false` only when its owner file is gone (cleaned up after) or says it staged none.
    package static func mayHaveStagedHiddenFiles(_ token: String, in directory: String) -> Bool {
        let file: FileSystem.Descriptor
        let size: UInt64
        do { (file, size) = try FileSystem.openForReading(directory + "/" + token) } catch {
            return error.errno != ENOENT
        }
        // Unreadable or torn: assume it may have staged files (`true`), the safe answer.
        guard let bytes = try? FileSystem.readAll(file, from: 0, size: min(size, 4096)),
            bytes.starts(with: formatLine)
        else { return true }
        // Only ``hiddenStagingLine`` is ever written after the first line: anything there (even
        // a part of it) counts.
        return bytes.count > formatLine.count
    }

    /// The files this process is publishing in each library and has not recorded yet, the open
    /// `TOKEN.publishing` file that lists them, where its next line goes (the file may be longer,
    /// its rest empty lines), and whether its name is durable.
    private static let publishing = Locked<
        [String: (file: FileSystem.Descriptor, paths: [String], length: Int64, isNamed: Bool)]
    >([:])

    /// Lists `paths` (below the library's folder) in this process's `owners/TOKEN.publishing`,
    /// durably, before their names exist: should the process die or the power fail before the
    /// save is recorded, the next opening proves the files are its own
    /// (``publishedPaths(of:in:)``) and removes them. (Without the flush, a power loss could keep
    /// the names, made durable by any later commit of the file system, and lose the list: the
    /// files would then be strays no one could prove were never a user's.)
    ///
    /// The list only grows while saves are in flight (each call appends and flushes its lines) and
    /// is emptied in place once none is (``clearPublishing(_:in:)``): it never holds fewer names
    /// than are being published. A name it still holds whose save was recorded is kept by recovery.
    package static func notePublishing(_ paths: [String], in directory: String) throws(SystemError) {
        try register(in: directory)
        let failure = publishing.withLock { state -> SystemError? in
            do throws(SystemError) {
                var entry: (file: FileSystem.Descriptor, paths: [String], length: Int64, isNamed: Bool)
                if let open = state[directory] {
                    entry = open
                } else {
                    let file = try FileSystem.openLockFile(directory + "/\(token).publishing")
                    entry = (file, [], 0, false)
                    // Stored at once: the descriptor lives with the process, whatever fails below.
                    state[directory] = entry
                }
                let bytes = Array(paths.map { $0 + "\n" }.joined().utf8)
                try FileSystem.write(entry.file, bytes, at: entry.length)
                try FileSystem.flushData(entry.file)
                if !entry.isNamed {
                    // The list's name, too (recovery finds a dead owner by it when its owner file's
                    // name did not survive a power loss: ``owners(in:)``); tried again until it is.
                    let folder = try FileSystem.openDirectory(directory)
                    try FileSystem.fsync(folder)
                    entry.isNamed = true
                }
                entry.length += Int64(bytes.count)
                entry.paths += paths
                state[directory] = entry
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Takes `paths` off the list once their save is recorded or undone; the file is emptied in
    /// place (overwritten with empty lines: it then names nothing) when nothing is being published
    /// any more.
    package static func clearPublishing(_ paths: [String], in directory: String) {
        publishing.withLock { state in
            guard var entry = state[directory] else { return }
            for path in paths {
                if let index = entry.paths.firstIndex(of: path) { entry.paths.remove(at: index) }
            }
            if entry.paths.isEmpty, entry.length > 0 {
                let emptyLines = [UInt8](repeating: 0x0A, count: Int(entry.length))
                // Emptied in place (every byte a line feed), not truncated: the file keeps its size and its
                // blocks, so the next listing overwrites it in place and its flush writes one page,
                // with no allocation or size change for the file system to commit first (a lone
                // save waits for that flush). Dropping a failure is safe: a list left longer than
                // it is names files that are recorded or undone, and recovery keeps or ignores
                // those; the next call appends.
                if (try? FileSystem.write(entry.file, emptyLines, at: 0)) != nil { entry.length = 0 }
            }
            state[directory] = entry
        }
    }

    /// The files a (dead) owner listed as being published (``notePublishing(_:in:)``).
    package static func publishedPaths(of token: String, in directory: String) -> [String] {
        guard isWellFormed(token),
            // An unreadable list names nothing: none of its files is removed (nothing lost).
            let (file, size) = try? FileSystem.openForReading(directory + "/\(token).publishing")
        else { return [] }
        // A list that cannot be read names nothing either: nothing is removed.
        guard let bytes = try? FileSystem.readAll(file, from: 0, size: min(size, 16 << 20)) else { return [] }
        return bytes.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
            .filter { $0.hasPrefix("originals/") && !$0.contains("..") }
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
        let file: FileSystem.Descriptor
        do { file = try FileSystem.openLockFile(path, create: false) } catch {
            // No owner file: the owner is dead (a live one keeps its file), and a power loss kept
            // only its list, already swept. Dropping a failure to remove it is safe: the next
            // opening sweeps it again. Any other failure: it may be alive, nothing is forgotten.
            if error.errno == ENOENT { _ = try? removeOwnFile(token + ".publishing", in: directory) }
            return
        }
        defer { FileSystem.close(file) }
        // A lock that cannot be taken: the owner may be alive, so nothing of it is forgotten.
        guard (try? FileSystem.lock(file, wait: false)) != nil, FileSystem.isSameFile(file, path) else { return }
        _ = try? removeOwnFile(token + ".publishing", in: directory)  // its list, when it left one
        _ = try? removeOwnFile(token, in: directory)
    }

    /// Removes the regular file `name` of the owners folder `directory` through the gate
    /// (``RemovalGate``): a link in the owners folder's place, or in the file's, is never followed.
    private static func removeOwnFile(_ name: String, in directory: String) throws(SystemError) -> Bool {
        let folder = (directory as NSString).lastPathComponent
        return try RemovalGate(root: (directory as NSString).deletingLastPathComponent).removeFile(folder + "/" + name)
    }

    /// The tokens with an owner file or a publishing list in `directory` (live or dead): after a
    /// power loss the list's name, flushed, may be there without the owner file's.
    package static func owners(in directory: String) -> [String] {
        // An unlistable folder lists no owners: nothing is swept now, the next opening retries.
        let names = (try? FileSystem.names(inDirectoryAt: directory)) ?? []
        let tokens = names.map { $0.hasSuffix(".publishing") ? String($0.dropLast(".publishing".count)) : $0 }
        return Array(Set(tokens.filter(isWellFormed))).sorted()
    }

    /// Tokens look like `p<pid>-<16 hex digits>`.
    static func isWellFormed(_ token: String) -> Bool {
        token.hasPrefix("p") && token.count <= 40 && !token.contains(".") && !token.contains("/")
            && token.contains("-")
    }
}
