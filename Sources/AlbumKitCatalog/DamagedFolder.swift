import AlbumKitCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where one step sets aside what it cannot use (a damaged index, a snapshot of another copy, a
/// folder or FIFO where a file of the index goes): `damaged/DATE/` (or `previous-release/`), made
/// when the first thing is kept. Things are moved there by rename, never copied, removed or
/// followed, so each is kept once.
///
/// ```swift
/// let aside = DamagedFolder(root: root.path)
/// try aside.keep(root.path + "/catalog.sqlite", as: "catalog.sqlite")
/// aside.made   // "/data/Photos.albumlibrary/damaged/2026-12-06T08-02-11Z"
/// ```
final class DamagedFolder {
    let root: String
    let isPreviousRelease: Bool
    /// The folder, once something was kept in it.
    private(set) var made: String?

    init(root: String, previousRelease: Bool = false) {
        self.root = root
        self.isPreviousRelease = previousRelease
    }

    /// Moves whatever is at `path` (a file, folder, FIFO or link, which is not followed) into the
    /// folder as `name`, or under another name when that one is taken. Nothing there: nothing done.
    func keep(_ path: String, as name: String) throws {
        guard FileSystem.fileStatus(atPath: path, following: false) != nil else { return }
        let folder = try made ?? make()
        var target = folder + "/" + name
        if FileSystem.fileStatus(atPath: target, following: false) != nil {
            // "catalog.sqlite-wal" → "catalog-3f9a….sqlite-wal"
            let stem = name.prefix { $0 != "." }
            target = folder + "/" + stem + "-" + RandomID.make() + name.dropFirst(stem.count)
        }
        if let failure = Self.rename(path, to: target), failure.errno != ENOENT { throw failure }
    }

    /// Renames `path`; the failure, if any (`ENOENT`: gone meanwhile, such as another program's
    /// rollback journal, nothing to keep).
    private static func rename(_ path: String, to target: String) -> SystemError? {
        do { try FileSystem.rename(path, to: target) } catch { return error }
        return nil
    }

    private func make() throws -> String {
        let folder = isPreviousRelease ? root + "/previous-release" : root + "/damaged/" + CatalogBackend.timestamp()
        _ = try FileSystem.makeDirectory(atPath: folder)
        made = folder
        return folder
    }
}
