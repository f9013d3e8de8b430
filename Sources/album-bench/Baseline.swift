import AlbumKitCore
import CShims
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the numbers are compared with: plain copies made durable the usual ways.
enum Baseline {
    /// `cp FILES… DIR` then `sync`, as one would copy photos onto a disk by hand; returns the time
    /// both processes took. `cp` keeps holes of sparse files; `--sparse=never` makes it write every
    /// byte, as AlbumKit does. `directory` is created first, outside the timing.
    static func copyThenSync(_ files: [String], into directory: URL) throws -> Double {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try Spawn.timed("cp", ["--sparse=never", "-t", directory.path] + files) + Spawn.timed("sync", [])
    }

    /// The physical limit: `dd` writing `source` to `destination` with `O_DIRECT` (no page cache)
    /// and an `fsync` at the end; returns the time it took.
    static func directWrite(_ source: String, to destination: String) throws -> Double {
        try Spawn.timed(
            "dd", ["if=\(source)", "of=\(destination)", "bs=4M", "oflag=direct", "conv=fsync", "status=none"])
    }

    /// How a copy is made durable, from the least a lone copy costs to the least a library that
    /// records each file in a catalog can do.
    enum Durability {
        /// The file's `fsync`, as `cp` followed by `fsync` would: its name is not yet durable.
        case file
        /// The file's `fsync`, then its folder's: the copy survives a power loss under its name.
        case fileAndName
        /// A commit record that names the file, made durable after the file and its name: the
        /// file's `fsync`, its folder's, then one 4 KB record appended to `log` and `fdatasync`ed.
        /// The floor of any catalog that never lets a durable record name a file that is not (three
        /// ordered flushes, as POSIX orders them).
        case orderedCommit(log: Int32)
        /// The file and one 4 KB record appended to `log`, made durable together by one `syncfs`: the
        /// floor of any catalog at all, even one that checks every file after a power loss (elsewhere
        /// than on Linux, the two `fsync`s).
        case oneBarrier(log: Int32)
    }

    /// Opens (creating) the append-only log that ``Durability/orderedCommit(log:)`` and
    /// ``Durability/oneBarrier(log:)`` write their records to.
    static func openLog(_ url: URL) throws -> Int32 {
        let log = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard log >= 0 else { throw BenchFailure("cannot create \(url.path): \(String(cString: strerror(errno)))") }
        return log
    }

    /// Copies one file and makes it durable as `durability` says; `hashing`: its SHA-256 computed
    /// while copying, as a library that recognises the same bytes must.
    static func copy(
        _ source: URL, to destination: URL, durably durability: Durability, hashing: Bool = false
    ) throws {
        var hasher = hashing ? SHA256Hasher() : nil
        let input = open(source.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw BenchFailure("cannot open \(source.path): \(String(cString: strerror(errno)))") }
        defer { close(input) }
        let output = open(destination.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard output >= 0 else {
            throw BenchFailure("cannot create \(destination.path): \(String(cString: strerror(errno)))")
        }
        defer { close(output) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = read(input, buffer.baseAddress, buffer.count)
            if n < 0 { throw BenchFailure("read failed: \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            hasher?.update(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            var done = 0
            while done < n {
                let written = write(output, buffer.baseAddress! + done, n - done)
                if written < 0 { throw BenchFailure("write failed: \(String(cString: strerror(errno)))") }
                done += written
            }
        }
        if let hasher = hasher.take() { _ = hasher.finalize() }
        switch durability {
        case .file:
            try flush(output)
        case .fileAndName:
            try flush(output)
            try flushFolder(of: destination)
        case .orderedCommit(let log):
            try flush(output)
            try flushFolder(of: destination)
            try appendRecord(naming: destination, to: log, buffer: buffer)
            #if os(Linux)
                let flushed = fdatasync(log)
            #else
                let flushed = fsync(log)
            #endif
            guard flushed == 0 else {
                throw BenchFailure("fdatasync failed: \(String(cString: strerror(errno)))")
            }
        case .oneBarrier(let log):
            try appendRecord(naming: destination, to: log, buffer: buffer)
            #if os(Linux)
                guard albumkit_syncfs(log) == 0 else {
                    throw BenchFailure("syncfs failed: \(String(cString: strerror(errno)))")
                }
            #else
                try flush(output)
                try flushFolder(of: destination)
                try flush(log)
            #endif
        }
    }

    private static func flush(_ descriptor: Int32) throws {
        guard fsync(descriptor) == 0 else { throw BenchFailure("fsync failed: \(String(cString: strerror(errno)))") }
    }

    private static func flushFolder(of file: URL) throws {
        let directory = open(file.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { throw BenchFailure("cannot open the folder of \(file.path)") }
        defer { close(directory) }
        try flush(directory)
    }

    /// Appends a 4 KB record that names `file` (the size of a catalog page) to `log`.
    private static func appendRecord(naming file: URL, to log: Int32, buffer: UnsafeMutableRawBufferPointer) throws {
        let record = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<4096])
        record.initializeMemory(as: UInt8.self, repeating: 0x20)
        let name = Array(file.lastPathComponent.utf8.prefix(4000))
        record.copyBytes(from: name)
        guard write(log, record.baseAddress, record.count) == record.count else {
            throw BenchFailure("write to the log failed: \(String(cString: strerror(errno)))")
        }
    }
}
