import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Detects a catalog with damaged pages before anything is read from it or written to it.
///
/// SQLite's structural check (`PRAGMA quick_check`: every b-tree page, cell and record of every
/// table and index) reads the whole file — about 0.3 s for 100 000 assets — so it runs only when
/// the catalog file changed since it last passed: its identity, size and times are remembered in
/// `catalog.sqlite-checked`. Connections keep the WAL on close, so the file itself changes only at
/// the checkpoints while saving, not after every command. Damage in the WAL breaks its frame
/// checksums: SQLite stops reading there, and the journal check finds the saves missing.
///
/// The WAL is checkpointed every ``walFrameLimit`` frames: every process that opens the catalog
/// first reads the whole WAL back (SQLite's recovery of its index), so a WAL left at SQLite's
/// default of 1 000 frames (4 MB) cost every `album` command about 2 ms. A checkpoint this
/// process made from a file that had passed the check is remembered as checked too
/// (``noteCheckpoint(of:after:)``): the pages it wrote came from the WAL, not from outside.
enum CatalogIntegrity {
    /// WAL frames (pages) after which a commit checkpoints them into the catalog file.
    static let walFrameLimit = 256

    /// Called after this connection ran statements: when the catalog file changed under them (a
    /// checkpoint) and it was the checked version before, the new version is remembered as checked.
    static func noteCheckpoint(of path: String, after before: String) {
        guard let now = fileIdentity(path), now != before, remembered(path) == before else { return }
        remember(now, for: path)
    }

    /// Runs the check unless the file is unchanged since it last passed.
    static func check(_ db: Database, path: String) throws {
        let identity = fileIdentity(path)
        if let identity, remembered(path) == identity { return }
        let result = try db.rows("PRAGMA quick_check(5)").compactMap { $0.text(0) }
        guard result == ["ok"] else {
            throw AlbumError.catalogDamaged(path, detail: result.prefix(3).joined(separator: "; "))
        }
        // The check is only a cache: if it cannot be written, the next open checks again.
        if let identity, fileIdentity(path) == identity { remember(identity, for: path) }
    }

    /// Device, inode, size, modification and change times: any write to the file changes one.
    static func fileIdentity(_ path: String) -> String? {
        guard let info = try? FileSystem.status(atPath: path) else { return nil }
        #if canImport(Darwin)
            let (m, c) = (info.st_mtimespec, info.st_ctimespec)
        #else
            let (m, c) = (info.st_mtim, info.st_ctim)
        #endif
        return "\(info.st_dev) \(info.st_ino) \(info.st_size) \(m.tv_sec).\(m.tv_nsec) \(c.tv_sec).\(c.tv_nsec)"
    }

    private static func remembered(_ path: String) -> String? {
        guard let (file, size) = try? FileSystem.openForReading(path + "-checked") else { return nil }
        defer { FileSystem.close(file) }
        guard size < 4096, let bytes = try? FileSystem.readAll(file, from: 0, size: size) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func remember(_ identity: String, for path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = directory + "/" + StagingName(kind: "checked").fileName
        guard let file = try? FileSystem.openForAppending(temporary) else { return }
        let written = (try? FileSystem.write(file, Array(identity.utf8))) != nil
        FileSystem.close(file)
        if !written || (try? FileSystem.rename(temporary, to: path + "-checked")) == nil {
            try? FileSystem.unlink(temporary)
        }
    }
}
