import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Perceptual hashes kept between runs, keyed by the content they were computed from (the SHA-256
/// of the asset's bytes): a cache, never the library's truth. A missing, unreadable or damaged
/// file is an empty cache (every hash is computed again), never an error of `verify`.
///
/// One text file, `perceptual-hashes`, one line per content: `SHA256 DHASH:PHASH` (hexadecimal),
/// rewritten whole (a new file renamed over the old) when hashes were added. Where it lives:
/// - a catalog library: `cache/perceptual-hashes` inside the library's folder;
/// - a folder library: `$XDG_CACHE_HOME/albumkit/perceptual-hashes/` (default `~/.cache/…`), one
///   file per library, named by the SHA-256 of the library's path.
///
/// ```swift
/// var store = PerceptualHashStore(folder: cacheFolder, name: "perceptual-hashes")
/// try store.load()
/// store[sha] = hash
/// try store.saveIfChanged()
/// ```
package struct PerceptualHashStore: Sendable {
    /// The folder that holds the file (made when first saved).
    package let folder: String
    /// The file's name in it.
    package let name: String
    private var hashes: [String: PerceptualHash] = [:]
    private var changed = false

    /// A store of the file `name` in `folder`, empty until ``load()``.
    package init(folder: String, name: String) {
        self.folder = folder
        self.name = name
    }

    /// The store of the library whose folder and kind are `library` (`LibraryBackend.libraryFolder`),
    /// or `nil` for a kind that keeps no folder (Photos, shared, in memory).
    package static func forLibrary(
        _ library: (root: URL, kind: String)?, environment: [String: String]
    ) -> PerceptualHashStore? {
        guard let library else { return nil }
        if library.kind.hasPrefix("catalog") {
            return PerceptualHashStore(folder: library.root.path + "/cache", name: "perceptual-hashes")
        }
        let cacheHome =
            environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? environment["HOME"].map { $0 + "/.cache" }
        guard let cacheHome else { return nil }
        let key = Array(library.root.standardizedFileURL.path.utf8).withUnsafeBytes { SHA256Hasher.hash($0) }
        return PerceptualHashStore(folder: cacheHome + "/albumkit/perceptual-hashes", name: key)
    }

    /// The hashes of the content whose SHA-256 is `sha256`, when stored.
    package subscript(sha256: String) -> PerceptualHash? {
        get { hashes[sha256] }
        set {
            guard hashes[sha256] != newValue else { return }
            hashes[sha256] = newValue
            changed = true
        }
    }

    /// How many contents have hashes.
    package var count: Int { hashes.count }

    /// Reads the file. Lines that are not a SHA-256 and a pair of hashes are left out (a cache
    /// damaged in part loses those hashes only); a missing file is an empty store.
    package mutating func load() throws(SystemError) {
        let file: FileSystem.Descriptor
        let size: UInt64
        do throws(SystemError) {
            (file, size) = try FileSystem.openForReading(folder + "/" + name)
        } catch  where error.errno == ENOENT || error.errno == ENOTDIR {
            return
        }
        let bytes = try FileSystem.readAll(file, from: 0, size: size)
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "))
            guard fields.count == 2, fields[0].count == 64,
                fields[0].allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
                let hash = PerceptualHash(hexadecimal: String(decoding: fields[1], as: UTF8.self))
            else { continue }
            hashes[String(decoding: fields[0], as: UTF8.self)] = hash
        }
    }

    /// Writes the file again when hashes were added: a new file, flushed, renamed over the old one.
    package mutating func saveIfChanged() throws(SystemError) {
        guard changed else { return }
        _ = try FileSystem.makeDirectory(atPath: folder)
        let directory = try FileSystem.openDirectory(folder)
        var text = ""
        text.reserveCapacity(hashes.count * 100)
        for (sha, hash) in hashes.sorted(by: { $0.key < $1.key }) { text += sha + " " + hash.hexadecimal + "\n" }
        let temporary = ".\(name).\(RandomID.make()).new"
        try FileSystem.createFile(temporary, in: directory, bytes: Array(text.utf8))
        try FileSystem.renameReplacing(temporary, in: directory, to: name, in: directory)
        changed = false
    }
}
