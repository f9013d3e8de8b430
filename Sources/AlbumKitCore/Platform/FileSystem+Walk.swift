import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileSystem {
    /// One thing a ``walk(_:leavingOut:)`` found under a folder. Nothing under the folder is passed
    /// over without one, except what `leavingOut` and the hidden-name rule leave out.
    package struct Found: Sendable {
        /// What the walk found at ``path``.
        package enum Kind: Sendable {
            /// A regular file, or a symbolic link to one: something to save.
            case file
            /// A pipe, socket or device: never a photo.
            case special
            /// A symbolic link to a folder: not followed, so a link cycle, or a link to `/`, cannot
            /// make the walk endless or wander off the tree the user chose.
            case linkToFolder
            /// A symbolic link whose target does not exist.
            case brokenLink
            /// A folder that could not be opened or listed: whatever is in it was not found.
            case unreadableFolder(SystemError)
            /// An AlbumKit catalog library (a folder with `originals/` and its catalog or journal):
            /// not entered, so its files are never saved or removed as a caller's.
            case catalogLibrary
        }

        /// The whole path, the walk's root first, as the file system's bytes.
        package let path: FileSystemPath
        /// The path below the root.
        package let relative: FileSystemPath
        package let kind: Kind
        /// A file's status when the walk found it (`fstatat` of its name in its folder, following
        /// a link): for a save to recognise it by and to check the file it opens against, without
        /// asking again. `nil` for anything else, or when it could not be read.
        package var status: FileStatus?
    }

    /// Everything under the folder `root` (which may be a symbolic link: the user named it), sorted
    /// by bytes, without hidden names (a leading `.`) and without what `leavingOut` returns `true`
    /// for (its relative path and whether it is a folder: a folder left out is not entered). Names
    /// need not be valid UTF-8. Throws only when `root` itself cannot be opened or listed.
    ///
    /// ```swift
    /// for found in try FileSystem.walk(FileSystemPath("/media/card/DCIM")) {
    ///     if case .file = found.kind { print(found.path) }
    /// }
    /// ```
    package static func walk(
        _ root: FileSystemPath, leavingOut: (_ relative: FileSystemPath, _ isFolder: Bool) -> Bool = { _, _ in false }
    ) throws(SystemError) -> [Found] {
        var found: [Found] = []
        // Folders waiting to be walked are kept as paths, each opened only when its turn comes: one
        // descriptor at a time, whatever the number of folders (1 500 sibling folders used to
        // hold 1 500 descriptors, past `ulimit -n`).
        var folders: [[UInt8]] = [[]]
        let slash = UInt8(ascii: "/")
        let base = root.bytes.last == slash ? root.bytes : root.bytes + [slash]
        while let relative = folders.popLast() {
            let entries: [(name: [UInt8], kind: FileStatus.Kind?, inode: UInt64)]
            let folder: Descriptor
            do {
                folder = try openWalkedFolder(
                    relative.isEmpty ? root.bytes : base + relative, following: relative.isEmpty)
                if !relative.isEmpty && holdsCatalogLibrary(folder.fd) {
                    found.append(Found(bytes: base + relative, relative: relative, kind: .catalogLibrary))
                    continue
                }
                entries = try entryBytes(in: folder)
            } catch {
                if relative.isEmpty { throw error }
                found.append(Found(bytes: base + relative, relative: relative, kind: .unreadableFolder(error)))
                continue
            }
            for entry in entries where entry.name.first != UInt8(ascii: ".") {
                let below = relative.isEmpty ? entry.name : relative + [slash] + entry.name
                let path = base + below
                var kind = entry.kind ?? fileStatus(atPath: FileSystemPath(bytes: path), following: false)?.kind
                var status: FileStatus?
                if kind == .symbolicLink {
                    status = fileStatus(atPath: FileSystemPath(bytes: path), following: true)
                    switch status?.kind {
                    case .regular?: kind = .regular
                    case .directory?:
                        if !leavingOut(FileSystemPath(bytes: below), true) {
                            found.append(Found(bytes: path, relative: below, kind: .linkToFolder))
                        }
                        continue
                    case nil:
                        if !leavingOut(FileSystemPath(bytes: below), false) {
                            found.append(Found(bytes: path, relative: below, kind: .brokenLink))
                        }
                        continue
                    default: kind = .other
                    }
                }
                let isFolder = kind == .directory
                if leavingOut(FileSystemPath(bytes: below), isFolder) { continue }
                switch kind {
                case .directory?: folders.append(below)
                case .regular?:
                    var file = Found(bytes: path, relative: below, kind: .file)
                    file.status = status ?? fileStatus(of: entry.name, in: folder, shown: path)
                    found.append(file)
                case nil:  // gone since it was listed
                    continue
                default: found.append(Found(bytes: path, relative: below, kind: .special))
                }
            }
        }
        return found.sorted { $0.path.bytes.lexicographicallyPrecedes($1.path.bytes) }
    }

    /// `fstatat` of the entry `name` of `folder` (whose whole path is `shown`), following a link.
    private static func fileStatus(of name: [UInt8], in folder: Descriptor, shown: [UInt8]) -> FileStatus? {
        if FaultInjector.check(.stat, String(decoding: shown, as: UTF8.self)) != nil { return nil }
        var info = stat()
        let result = FileSystemPath(bytes: name).withCString { fstatat(folder.fd, $0, &info, 0) }
        return result == 0 ? FileStatus(info) : nil
    }

    private static func openWalkedFolder(_ path: [UInt8], following: Bool) throws(SystemError) -> Descriptor {
        let shown = String(decoding: path, as: UTF8.self)
        try injected(.open, shown)
        let flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | (following ? 0 : O_NOFOLLOW)
        let fd = FileSystemPath(bytes: path).withCString { cPath in retrying { open(cPath, flags) } }
        guard fd >= 0 else { throw SystemError("open", path: shown, errno: errno) }
        return Descriptor(fd: fd, path: shown)
    }

    /// `stat` (or `lstat`) of a path that need not be valid UTF-8; `nil` when it does not exist or
    /// cannot be read.
    package static func fileStatus(atPath path: FileSystemPath, following: Bool = true) -> FileStatus? {
        if FaultInjector.check(.stat, path.description) != nil { return nil }
        var info = stat()
        let result = path.withCString { following ? stat($0, &info) : lstat($0, &info) }
        return result == 0 ? FileStatus(info) : nil
    }
}

extension FileSystem.Found {
    fileprivate init(bytes: [UInt8], relative: [UInt8], kind: Kind) {
        self.init(path: FileSystemPath(bytes: bytes), relative: FileSystemPath(bytes: relative), kind: kind)
    }
}
