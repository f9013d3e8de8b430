import AlbumKitCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where one step sets aside what it cannot use (a damaged index, a snapshot of another copy, a
/// folder or FIFO where a file of the index goes, a torn journal tail): `damaged/DATE/` (or
/// `previous-release/`), made when the first thing is kept. Things are moved there by rename, never
/// copied, removed or followed, so each is kept once. Both ends are opened through the library's
/// ``RemovalGate``: a `damaged/` (or the folder of what is kept) that is a link, or a file, is
/// never followed out of the library; the step then fails naming it.
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
    private let gate: RemovalGate

    init(root: String, previousRelease: Bool = false) {
        self.root = root
        self.isPreviousRelease = previousRelease
        self.gate = RemovalGate(root: root)
        self.relative = previousRelease ? "previous-release" : "damaged/" + CatalogBackend.timestamp()
    }

    /// The folder's path relative to the library's.
    private let relative: String

    /// Moves whatever is at `path` (a file, folder, FIFO or link, which is not followed) into the
    /// folder as `name`, or under another name when that one is taken. Nothing there: nothing done.
    func keep(_ path: String, as name: String) throws {
        guard FileSystem.fileStatus(atPath: path, following: false) != nil else { return }
        guard path.hasPrefix(root + "/"), let parts = RemovalGate.components(of: String(path.dropFirst(root.count + 1)))
        else { throw SystemError("rename", path: path, errno: EINVAL) }
        let source = try gate.openFolder(parts.dropLast().joined(separator: "/"))
        defer { FileSystem.close(source) }
        try place(name) { target, folder in
            try FileSystem.renameWithoutReplacing(parts[parts.count - 1], in: source, to: target, in: folder)
        }
    }

    /// Writes `bytes` (flushed) into the folder as the new file `name`, or under another name when
    /// that one is taken.
    func keep(_ bytes: [UInt8], as name: String) throws {
        try place(name) { target, folder in
            try FileSystem.createFile(target, in: folder, bytes: bytes)
        }
    }

    /// Runs `put` with `name` (then, when it is taken, `name` with a random part) and the folder
    /// opened beneath the library; `ENOENT` from `put` (the thing gone meanwhile, such as another
    /// program's rollback journal) is nothing to keep.
    private func place(_ name: String, _ put: (String, FileSystem.Descriptor) throws -> Void) throws {
        let folder = try open()
        defer { FileSystem.close(folder) }
        func code(_ error: any Error) -> Int32? { (error as? SystemError)?.errno }
        do {
            do { try put(name, folder) } catch  where code(error) == EEXIST {
                // "catalog.sqlite-wal" → "catalog-3f9a….sqlite-wal"
                let stem = name.prefix { $0 != "." }
                try put(stem + "-" + RandomID.make() + name.dropFirst(stem.count), folder)
            }
        } catch  where code(error) == ENOENT {
            return
        }
    }

    /// Opens the folder, made beneath the library's folder without following a link. Anything but
    /// a folder where `damaged/` (or `previous-release/`) goes, such as a link to a folder
    /// elsewhere, is first renamed beside it (`damaged.ID.not-a-folder`), never followed; when even
    /// that fails, the error names it.
    private func open() throws -> FileSystem.Descriptor {
        let top = isPreviousRelease ? "previous-release" : "damaged"
        if let status = gate.status(of: top), status.kind != .directory {
            try gate.moveFile(top, to: top + "." + RandomID.make() + ".not-a-folder", evenIfNotARegularFile: true)
        }
        do {
            let folder = try gate.makeFolder(relative).folder
            made = root + "/" + relative
            return folder
        } catch {
            guard let status = gate.status(of: top), status.kind != .directory else { throw error }
            throw AlbumError(
                .ioFailure,
                "Cannot set aside what the library cannot use: \(root)/\(top) is \(status.kind == .symbolicLink ? "a symbolic link" : "not a folder"), and AlbumKit sets things aside only in a folder of the library. Move it away and try again.",
                underlying: error)
        }
    }
}
