import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if os(Linux) || os(Android)
    internal import CShims
#endif

/// The one way a library's files are removed, moved or replaced, and the way a path read from the
/// library's own records is opened: beneath the library's folder and nowhere else.
///
/// A path given to the gate is relative to the library's folder (`originals/3f/ID.jpg`); one that
/// is absolute, or holds an empty, `.` or `..` component or a NUL byte, is refused (`EINVAL`)
/// before anything is opened. Each folder on the way is opened without following a symbolic link
/// (`openat2` with `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS` where the kernel has it, else one
/// `O_NOFOLLOW | O_DIRECTORY` open per level), so a symlinked folder inside the library fails
/// (`ELOOP` or `ENOTDIR`) instead of leading out of it. The target must then be a regular file:
/// a symbolic link (`ELOOP`), a folder (`EISDIR`), a FIFO, socket or device (`EINVAL`) is left
/// alone. Only then is it removed or renamed, through the descriptor of the folder just opened,
/// so a folder renamed meanwhile cannot redirect the call either. The library's folder itself may
/// be a symbolic link the user chose (`~/Photos.albumlibrary` → `/data/…`): it is followed.
///
/// ```swift
/// let gate = RemovalGate(root: "/data/Photos.albumlibrary")
/// try gate.removeFile("originals/3f/9f2c41d0-7a1b-43e8-9d2e-5b7c0a1f9e64.jpg")   // true: removed
/// try gate.removeFile("../victim/victim.txt")                                      // throws EINVAL
/// ```
package struct RemovalGate: Sendable {
    /// The library's folder.
    package let root: String
    /// Opens level by level even where `openat2` works (tests of the fallback;
    /// ``LibraryConfiguration/FolderWalk/levelByLevel`` for the whole process).
    package let levelByLevel: Bool

    /// Whether this process opens level by level everywhere.
    package static var forcesLevelByLevel: Bool { LibraryConfiguration.current.folderWalk == .levelByLevel }

    package init(root: String, levelByLevel: Bool = RemovalGate.forcesLevelByLevel) {
        self.root = root
        self.levelByLevel = levelByLevel
    }

    /// The components of `relative` when it is a path beneath a folder (no leading `/`, no empty,
    /// `.` or `..` component, no NUL byte); `nil` otherwise.
    ///
    /// ```swift
    /// RemovalGate.components(of: "originals/3f/a.jpg")   // ["originals", "3f", "a.jpg"]
    /// RemovalGate.components(of: "originals/../x")       // nil
    /// ```
    package static func components(of relative: String) -> [String]? {
        guard !relative.isEmpty, !relative.utf8.contains(0) else { return nil }
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else { return nil }
        return parts
    }

    /// Whether `name` is one component: a name in a folder, never a path.
    package static func isSingleName(_ name: String) -> Bool {
        components(of: name)?.count == 1
    }

    // MARK: Opening

    /// Opens the folder `relative` beneath the library's folder (`""` for the library's folder
    /// itself) without following a link at any level; the caller closes it.
    ///
    /// - Throws: `EINVAL` for a path that is not beneath the folder; `ELOOP`, `ENOTDIR` or
    ///   `EXDEV` for a link on the way; `ENOENT` when a level is missing.
    package func openFolder(_ relative: String) throws(SystemError) -> FileSystem.Descriptor {
        try openFolder(relative, creatingMissing: false).folder
    }

    /// Opens the folder `relative` as ``openFolder(_:)`` does, making each missing level (the
    /// library's own folders: a shard of `originals/`, `damaged/originals/`); `created` says
    /// whether the last level was made by this call (its entry then needs flushing).
    package func makeFolder(_ relative: String) throws(SystemError) -> (folder: FileSystem.Descriptor, created: Bool) {
        try openFolder(relative, creatingMissing: true)
    }

    private func openFolder(
        _ relative: String, creatingMissing: Bool
    ) throws(SystemError) -> (folder: FileSystem.Descriptor, created: Bool) {
        let parts: [String]
        if relative.isEmpty {
            parts = []
        } else {
            guard let found = Self.components(of: relative) else { throw refusal(relative) }
            parts = found
        }
        let base = try FileSystem.openRoot(root)
        guard !parts.isEmpty else { return (base, false) }
        let path = root + "/" + relative
        #if os(Linux) || os(Android)
            if !levelByLevel {
                try FileSystem.injected(.open, path)
                let fd = FileSystem.retrying {
                    albumkit_open_beneath(base.fd, relative, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                }
                if fd >= 0 { return (FileSystem.Descriptor(fd: fd, path: path), false) }
                let code = errno
                // Missing levels are made one at a time below; without `openat2`, levels are opened so.
                guard code == ENOSYS || (code == ENOENT && creatingMissing) else {
                    throw SystemError("openat2", path: path, errno: code)
                }
            }
        #endif
        var current = base
        var created = false
        for name in parts {
            do throws(SystemError) {
                current = try FileSystem.openDirectory(name, in: current)
                created = false
            } catch  where error.errno == ENOENT && creatingMissing {
                created = try FileSystem.makeDirectory(name, in: current)
                current = try FileSystem.openDirectory(name, in: current)
            }
        }
        return (current, created)
    }

    /// Opens the regular file `relative` beneath the library's folder for reading (never a link,
    /// a FIFO or a device: see ``FileSystem/openFile(_:in:)``), with its size.
    package func openFileForReading(_ relative: String) throws(SystemError) -> (FileSystem.Descriptor, size: UInt64) {
        guard let parts = Self.components(of: relative) else { throw refusal(relative) }
        let folder = try openFolder(parts.dropLast().joined(separator: "/"))
        return try FileSystem.openFileWithSize(parts[parts.count - 1], in: folder)
    }

    /// Opens the regular file `file` for reading: beneath `folder` through the gate when it is
    /// given (a catalog library's original, whose path came from its records), else as
    /// ``FileSystem/openForReading(_:)`` does.
    ///
    /// - Throws: `EINVAL` when `file` is not inside `folder`; as ``openFileForReading(_:)``.
    package static func openForReading(
        _ file: URL, beneath folder: URL?
    ) throws(SystemError) -> (FileSystem.Descriptor, size: UInt64) {
        guard let folder else { return try FileSystem.openForReading(file.path) }
        let prefix = folder.path.hasSuffix("/") ? folder.path : folder.path + "/"
        guard file.path.hasPrefix(prefix) else {
            throw SystemError("open beneath the library", path: file.path, errno: EINVAL)
        }
        return try RemovalGate(root: folder.path).openFileForReading(String(file.path.dropFirst(prefix.count)))
    }

    /// What `lstat` says of `relative`, its folders opened beneath the library's folder; `nil` when
    /// it is missing or cannot be reached that way (a link on the way, a path leading out).
    package func status(of relative: String) -> FileStatus? {
        guard let parts = Self.components(of: relative),
            // A folder that cannot be opened beneath the library's folder: nothing to say (`nil`).
            let folder = try? openFolder(parts.dropLast().joined(separator: "/"))
        else { return nil }
        return FileSystem.fileStatus(of: parts[parts.count - 1], in: folder)
    }

    // MARK: Removing and moving

    /// Removes the regular file `relative` beneath the library's folder.
    ///
    /// - Returns: `false` when there was nothing to remove (the file or a folder on the way is missing).
    /// - Throws: as ``openFolder(_:)``, and `ELOOP`, `EISDIR` or `EINVAL` when the target is not a
    ///   regular file (nothing is removed).
    @discardableResult
    package func removeFile(_ relative: String) throws(SystemError) -> Bool {
        guard let parts = Self.components(of: relative) else { throw refusal(relative) }
        let folder: FileSystem.Descriptor
        do throws(SystemError) { folder = try openFolder(parts.dropLast().joined(separator: "/")) } catch
            where
            error.errno == ENOENT
        {
            return false
        }
        return try Self.removeFile(named: parts[parts.count - 1], in: folder)
    }

    /// Removes the regular file `name` of `folder`: a folder this gate opened, or the folder a
    /// staged file of the library was made in (``FileSystem/StagedFile/directory``).
    ///
    /// - Returns: `false` when it was not there.
    /// - Throws: `EINVAL` when `name` is not a single name; `ELOOP`, `EISDIR` or `EINVAL` when it
    ///   is not a regular file (nothing is removed).
    @discardableResult
    package static func removeFile(named name: String, in folder: FileSystem.Descriptor) throws(SystemError) -> Bool {
        let path = folder.path + "/" + name
        guard isSingleName(name) else { throw SystemError("unlink", path: path, errno: EINVAL) }
        try FileSystem.injected(.unlink, path)
        guard let status = FileSystem.fileStatus(of: name, in: folder) else { return false }
        try requireRegular(status, path, "unlink")
        // Between the check and the call the name stays in this folder: whatever took its place
        // meanwhile is removed itself (a link, never what it leads to), and only inside the library.
        guard unlinkat(folder.fd, name, 0) == 0 else {
            if errno == ENOENT { return false }
            throw SystemError("unlink", path: path, errno: errno)
        }
        return true
    }

    /// Renames the regular file `relative` to `target` (both beneath the library's folder; the
    /// folders of `target` made when missing), never replacing an existing entry.
    /// `evenIfNotARegularFile` also moves a link, FIFO, socket or device found there (the entry itself,
    /// never what a link leads to: moving it aside to `damaged/` frees its place); a folder never.
    ///
    /// - Throws: as ``removeFile(_:)``; `EEXIST` when `target` is taken; `ENOENT` when `relative`
    ///   is missing.
    package func moveFile(_ relative: String, to target: String, evenIfNotARegularFile: Bool = false)
        throws(SystemError)
    {
        guard let from = Self.components(of: relative) else { throw refusal(relative) }
        guard let to = Self.components(of: target) else { throw refusal(target) }
        let source = try openFolder(from.dropLast().joined(separator: "/"))
        let name = from[from.count - 1]
        guard let status = FileSystem.fileStatus(of: name, in: source) else {
            throw SystemError("rename", path: source.path + "/" + name, errno: ENOENT)
        }
        if !evenIfNotARegularFile || status.kind == .directory {
            try Self.requireRegular(status, source.path + "/" + name, "rename")
        }
        let destination = try makeFolder(to.dropLast().joined(separator: "/")).folder
        try FileSystem.renameWithoutReplacing(name, in: source, to: to[to.count - 1], in: destination)
    }

    private static func requireRegular(_ status: FileStatus, _ path: String, _ call: String) throws(SystemError) {
        switch status.kind {
        case .regular: return
        case .symbolicLink: throw SystemError(call, path: path, errno: ELOOP)
        case .directory: throw SystemError(call, path: path, errno: EISDIR)
        case .other: throw SystemError(call, path: path, errno: EINVAL)
        }
    }

    private func refusal(_ relative: String) -> SystemError {
        SystemError("open beneath the library", path: root + "/" + relative, errno: EINVAL)
    }
}
