import AlbumKitCore
import CShims
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The least a content-hashed, crash-safe batch save can do on Linux, as its own process (`album-bench
/// --batch-floor DIR FILES…`): what a catalog batch must do and nothing more, to compare a batch's
/// time with.
///
/// 1. On every core: each file opened, read once, hashed (SHA-256) and written into an `O_TMPFILE`
///    inode of one shard folder, its writeback started (`sync_file_range`).
/// 2. The names the files will get written to a list and flushed (its folder too: the list is
///    new) — before any name exists, so a crash leaves no name the list does not own.
/// 3. Each file named (`linkat`), then one `syncfs`: every file's data and name durable.
/// 4. One line per file (name, size, SHA-256) appended to a journal and `fdatasync`ed: the commit.
///
/// Four flushes a batch, whatever its size; about nine system calls a file.
///
/// ```sh
/// album-bench --batch-floor /tmp/floor-1 IMG_1.jpg IMG_2.jpg
/// ```
enum BatchFloor {
    /// Runs the floor in a child process and returns the time from its start to its exit.
    static func timed(_ files: [String], into directory: URL) throws -> Double {
        let me =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return try Spawn.timed(me, ["--batch-floor", directory.path] + files)
    }

    /// The child's side: saves `arguments[1...]` into the folder `arguments[0]` (made); returns the
    /// exit status.
    static func main(_ arguments: [String]) -> Int32 {
        guard arguments.count >= 2 else {
            FileHandle.standardError.write(Data("album-bench --batch-floor DIR FILE…\n".utf8))
            return 2
        }
        do {
            try save(Array(arguments.dropFirst()), into: arguments[0])
            return 0
        } catch {
            FileHandle.standardError.write(Data("album-bench --batch-floor: \(error)\n".utf8))
            return 1
        }
    }

    private struct Copied {
        var file: Int32 = -1
        var size = 0
        var sha256 = ""
        var failure: String?
    }

    private static func save(_ files: [String], into directory: String) throws {
        #if os(Linux)
            for folder in [directory, directory + "/originals", directory + "/originals/00"] {
                guard mkdir(folder, 0o700) == 0 || errno == EEXIST else { throw failure("mkdir", folder) }
            }
            let shard = open(directory + "/originals/00", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard shard >= 0 else { throw failure("open", directory) }
            defer { close(shard) }
            // 1. Copied and hashed on every core.
            let copies = Locked([Copied](repeating: Copied(), count: files.count))
            let threads = max(1, ProcessInfo.processInfo.activeProcessorCount)
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                var buffer = [UInt8](repeating: 0, count: 1 << 20)
                for index in stride(from: thread, to: files.count, by: threads) {
                    let copied = copy(files[index], into: shard, buffer: &buffer)
                    copies.withLock { $0[index] = copied }
                }
            }
            let copied = copies.withLock { $0 }
            defer { for item in copied where item.file >= 0 { close(item.file) } }
            if let failed = copied.first(where: { $0.failure != nil })?.failure { throw BenchFailure(failed) }
            let names = files.indices.map { String(format: "%08d.jpg", $0) }
            // 2. The list of names, durable before any of them exists.
            let list = open(directory + "/publishing", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard list >= 0 else { throw failure("open", directory + "/publishing") }
            defer { close(list) }
            try append(names.map { "originals/00/\($0)\n" }.joined(), to: list)
            guard fdatasync(list) == 0 else { throw failure("fdatasync", "the list") }
            let folder = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard folder >= 0 else { throw failure("open", directory) }
            defer { close(folder) }
            guard fsync(folder) == 0 else { throw failure("fsync", directory) }
            // 3. Named, then data and names durable in one barrier.
            for (item, name) in zip(copied, names) {
                guard linkat(AT_FDCWD, "/proc/self/fd/\(item.file)", shard, name, AT_SYMLINK_FOLLOW) == 0 else {
                    throw failure("linkat", name)
                }
            }
            guard albumkit_syncfs(shard) == 0 else { throw failure("syncfs", directory) }
            // 4. The commit.
            let journal = open(directory + "/journal", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
            guard journal >= 0 else { throw failure("open", directory + "/journal") }
            defer { close(journal) }
            let lines = zip(copied, names).map {
                "{\"path\":\"originals/00/\($1)\",\"size\":\($0.size),\"sha256\":\"\($0.sha256)\"}\n"
            }
            try append(lines.joined(), to: journal)
            guard fdatasync(journal) == 0 else { throw failure("fdatasync", "the journal") }
        #else
            throw BenchFailure("the batch floor uses syncfs and O_TMPFILE: Linux only")
        #endif
    }

    #if os(Linux)
        /// Opens `path`, reads it whole into `buffer` (grown to fit), hashes it and writes it into a
        /// new `O_TMPFILE` inode of `shard`, whose writeback starts at once.
        private static func copy(_ path: String, into shard: Int32, buffer: inout [UInt8]) -> Copied {
            var result = Copied()
            let input = open(path, O_RDONLY | O_CLOEXEC)
            guard input >= 0 else { return Copied(failure: "cannot open \(path)") }
            defer { close(input) }
            var info = stat()
            guard fstat(input, &info) == 0 else { return Copied(failure: "cannot stat \(path)") }
            let size = Int(info.st_size)
            if buffer.count < size { buffer = [UInt8](repeating: 0, count: size) }
            let output = albumkit_open_tmpfile(shard, 0o600)
            guard output >= 0 else { return Copied(failure: "cannot stage \(path)") }
            result.file = output
            result.size = size
            let failure: String? = buffer.withUnsafeMutableBytes { raw in
                var done = 0
                while done < size {
                    let n = pread(input, raw.baseAddress! + done, size - done, off_t(done))
                    guard n > 0 else { return "cannot read \(path)" }
                    done += n
                }
                var hasher = SHA256Hasher()
                hasher.update(UnsafeRawBufferPointer(rebasing: raw[0..<size]))
                result.sha256 = hasher.finalize()
                var written = 0
                while written < size {
                    let n = write(output, raw.baseAddress! + written, size - written)
                    guard n > 0 else { return "cannot write the copy of \(path)" }
                    written += n
                }
                return nil
            }
            result.failure = failure
            _ = albumkit_start_writeback(output, 0, Int64(size))
            return result
        }

        private static func append(_ text: String, to file: Int32) throws {
            let bytes = Array(text.utf8)
            var done = 0
            while done < bytes.count {
                let n = bytes.withUnsafeBytes { write(file, $0.baseAddress! + done, bytes.count - done) }
                guard n > 0 else { throw failure("write", "a list") }
                done += n
            }
        }

        private static func failure(_ call: String, _ path: String) -> BenchFailure {
            BenchFailure("\(call) \(path): \(String(cString: strerror(errno)))")
        }
    #endif
}
