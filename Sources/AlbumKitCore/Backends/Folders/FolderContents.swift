import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files of one folder, for choosing a free name and finding an identical file (same size,
/// then same SHA-256, hashed only when sizes match, and once per file version through `cache`).
struct FolderContents {
    let directory: FileSystem.Descriptor
    private let cache: FileHashCache
    private(set) var sizes: [String: Int64] = [:]

    /// Lists the regular, visible files of `directory`.
    init(directory: FileSystem.Descriptor, cache: FileHashCache) throws(SystemError) {
        self.directory = directory
        self.cache = cache
        for name in try FileSystem.names(in: directory) where !name.hasPrefix(".") {
            if let info = FileSystem.status(of: name, in: directory), (info.st_mode & S_IFMT) == S_IFREG {
                sizes[name] = Int64(info.st_size)
            }
        }
    }

    /// The name of a file identical to (`size`, `sha256`), preferring `preferred`; `nil` when none.
    mutating func identical(size: Int64, sha256: String, preferred: String) -> String? {
        let candidates = sizes.filter { $0.value == size }.keys.sorted { a, b in
            a == preferred || (b != preferred && Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8)))
        }
        for name in candidates where cache.sha256(of: name, in: directory) == sha256 { return name }
        return nil
    }

    /// Whether anything (a file, folder or symlink) already has `name`.
    func isTaken(_ name: String) -> Bool {
        sizes[name] != nil || FileSystem.status(of: name, in: directory) != nil
    }

    /// Records a file this commit published.
    mutating func add(_ name: String, size: Int64, sha256: String) {
        sizes[name] = size
        cache.remember(sha256, forFile: name, in: directory)
    }

    /// Re-reads `name` after a publish found it taken (another process wrote it meanwhile).
    mutating func refresh(_ name: String) {
        if let info = FileSystem.status(of: name, in: directory), (info.st_mode & S_IFMT) == S_IFREG {
            sizes[name] = Int64(info.st_size)
        } else {
            sizes[name] = nil
        }
    }
}
