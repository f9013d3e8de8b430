import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The share links of a library kept in a file of the library's own (the catalog: `shares/` in
/// its folder; the folder library: `.albumkit/shares/`): `links.json`, replaced whole and atomically
/// (written and flushed under a fresh hidden name, renamed over, the folder flushed) while `lock` is
/// `flock`ed, so two processes never lose each other's change. Every server and command of the
/// library reads the same file: no server keeps links of its own.
///
/// Everything is reached through the library's ``RemovalGate``: the folder is opened without
/// following a link, and the only names ever removed or moved are this file's own staged copies
/// (`.links.<16 hex>.tmp`) and a damaged `links.json`, set aside as `links.damaged-<time>.json`.
///
/// ```swift
/// let file = ShareLinkFile(root: "/data/Photos.albumlibrary", folder: "shares")
/// try file.update { links in links.append(made) }
/// let links = try file.read()
/// ```
package struct ShareLinkFile: Sendable {
    /// The library's folder.
    package let root: String
    /// The folder of the links below it.
    package let folder: String
    static let fileName = "links.json"
    static let lockName = "lock"

    package init(root: String, folder: String) {
        self.root = root
        self.folder = folder
    }

    var gate: RemovalGate { RemovalGate(root: root) }
    var path: String { root + "/" + folder + "/" + Self.fileName }

    /// One link as the file keeps it.
    struct Record: Codable {
        var id: String
        var album: String
        var rights: String
        var created: Double
        var expires: Double?
        var token: String
        var pin: String?
        var failed: Int?
    }

    struct Contents: Codable {
        var version = 1
        var links: [Record] = []
    }

    /// The links; none when the file was never written. Records that are not well formed are
    /// left out (they open nothing).
    ///
    /// - Throws: `.libraryCorrupt` naming the file when it is not one AlbumKit wrote (the next
    ///   change sets it aside); `.fileUnreadable` when it cannot be read.
    package func read() throws -> [ShareLink] {
        let directory: FileSystem.Descriptor
        do { directory = try gate.openFolder(folder) } catch  where error.errno == ENOENT { return [] } catch {
            throw unreadable(error)
        }
        defer { FileSystem.close(directory) }
        switch try contents(in: directory) {
        case .some(let links): return links
        case .none:
            throw AlbumError(
                .libraryCorrupt,
                "The share links in \(path) are damaged; no link opens until the next `album share` or `album unshare` sets the file aside.",
                file: path)
        }
    }

    /// Changes the links under the file's lock and writes them back (when `change` returns without
    /// throwing); returns what `change` returned. A damaged file is set aside first and the links
    /// start empty.
    ///
    /// - Throws: what `change` throws; `.libraryUnwritable` naming the file when it cannot be written.
    package func update<Result>(_ change: (inout [ShareLink]) throws -> Result) throws -> Result {
        let directory: FileSystem.Descriptor
        let lock: FileSystem.Descriptor
        do {
            let (made, created) = try gate.makeFolder(folder)
            if created {
                // The new folder's entry, flushed before a link is written in it.
                let parent = try gate.openFolder(parentFolder)
                defer { FileSystem.close(parent) }
                try FileSystem.fsync(parent)
            }
            directory = made
            lock = try FileSystem.openLockFile(Self.lockName, in: directory)
            try FileSystem.lockExclusively(lock)
        } catch {
            throw unwritable(error)
        }
        defer {
            FileSystem.close(lock)
            FileSystem.close(directory)
        }
        removeStagedCopies(in: directory)
        var links: [ShareLink]
        if let read = try contents(in: directory) {
            links = read
        } else {
            do {
                let aside = "links.damaged-\(Int(Date().timeIntervalSince1970)).json"
                try gate.moveFile(folder + "/" + Self.fileName, to: folder + "/" + aside, evenIfNotARegularFile: true)
            } catch {
                throw unwritable(error)
            }
            links = []
        }
        let result = try change(&links)
        try write(links, in: directory)
        return result
    }

    private var parentFolder: String {
        folder.split(separator: "/").dropLast().joined(separator: "/")
    }

    /// The links in the file; `[]` without one; `nil` when it is damaged.
    private func contents(in directory: FileSystem.Descriptor) throws -> [ShareLink]? {
        let bytes: [UInt8]?
        do { bytes = try FileSystem.readSmallFile(Self.fileName, in: directory, limit: 16 << 20) } catch {
            // A link, a folder or a device where the file should be: damaged, set aside by the next change.
            if [ELOOP, EISDIR, EINVAL].contains(error.errno) { return nil }
            throw unreadable(error)
        }
        guard let bytes else { return [] }
        guard let decoded = try? JSONDecoder().decode(Contents.self, from: Data(bytes)) else { return nil }  // damaged
        return decoded.links.compactMap(Self.link(from:))
    }

    static func link(from record: Record) -> ShareLink? {
        guard let rights = ShareLink.Rights(rawValue: record.rights), record.created.isFinite else { return nil }
        let link = ShareLink(
            id: record.id, albumID: record.album, rights: rights,
            createdAt: Date(timeIntervalSince1970: record.created),
            expiresAt: record.expires.flatMap { $0.isFinite ? Date(timeIntervalSince1970: $0) : nil },
            tokenHash: record.token, pinHash: record.pin, failedPINAttempts: record.failed ?? 0)
        return link.isWellFormed ? link : nil
    }

    static func record(from link: ShareLink) -> Record {
        Record(
            id: link.id, album: link.albumID, rights: link.rights.rawValue,
            created: link.createdAt.timeIntervalSince1970,
            expires: link.expiresAt?.timeIntervalSince1970, token: link.tokenHash, pin: link.pinHash,
            failed: link.failedPINAttempts == 0 ? nil : link.failedPINAttempts)
    }

    private func write(_ links: [ShareLink], in directory: FileSystem.Descriptor) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let bytes: [UInt8]
        do { bytes = Array(try encoder.encode(Contents(links: links.map(Self.record(from:))))) } catch {
            throw AlbumError(.libraryUnwritable, "The share links cannot be written to \(path): \(error).", file: path)
        }
        let staged = ".links.\(ShareLinkSecret.randomHex(bytes: 8)).tmp"
        do {
            try FileSystem.createFile(staged, in: directory, bytes: bytes)  // flushed
            do { try FileSystem.renameReplacing(staged, in: directory, to: Self.fileName, in: directory) } catch {
                // Our own staged copy; the rename's failure is what is reported.
                _ = try? RemovalGate.removeFile(named: staged, in: directory)
                throw error
            }
            try FileSystem.fsync(directory)
        } catch {
            throw unwritable(error)
        }
    }

    /// Removes the staged copies a process killed while writing left (only names this type makes).
    private func removeStagedCopies(in directory: FileSystem.Descriptor) {
        // Unlistable: the copies stay for the next change (they are hidden and open nothing).
        for name in (try? FileSystem.names(in: directory)) ?? [] where Self.isStagedCopy(name) {
            // A copy that cannot be removed now is retried at the next change.
            _ = try? RemovalGate.removeFile(named: name, in: directory)
        }
    }

    static func isStagedCopy(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        return bytes.count == 27 && name.hasPrefix(".links.") && name.hasSuffix(".tmp")
            && bytes[7..<23].allSatisfy(ShareLink.isHexDigit)
    }

    private func unreadable(_ error: any Error) -> AlbumError {
        AlbumError(
            .fileUnreadable, "The share links in \(path) cannot be read: \(error).", file: path, underlying: error)
    }

    private func unwritable(_ error: any Error) -> AlbumError {
        if let error = error as? AlbumError { return error }
        return AlbumError(
            .libraryUnwritable, "The share links cannot be written to \(path): \(error).", file: path,
            underlying: error)
    }
}
