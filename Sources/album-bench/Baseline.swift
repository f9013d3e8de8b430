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

    /// Copies one file and `fsync`s it (and its directory when `syncingDirectory`): the least a
    /// durable single-file copy costs, done in-process like a `cp` followed by `fsync`.
    static func copyAndFsync(_ source: URL, to destination: URL, syncingDirectory: Bool) throws {
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
            var done = 0
            while done < n {
                let written = write(output, buffer.baseAddress! + done, n - done)
                if written < 0 { throw BenchFailure("write failed: \(String(cString: strerror(errno)))") }
                done += written
            }
        }
        guard fsync(output) == 0 else { throw BenchFailure("fsync failed: \(String(cString: strerror(errno)))") }
        if syncingDirectory {
            let directory = open(destination.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard directory >= 0 else { throw BenchFailure("cannot open the directory") }
            defer { close(directory) }
            guard fsync(directory) == 0 else { throw BenchFailure("fsync of the directory failed") }
        }
    }
}
