import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `stat` says about a file, in portable names (the times through `stat+Times.swift`).
///
/// ```swift
/// if let info = FileSystem.fileStatus(of: "a.jpg", in: folder), info.kind == .regular { print(info.size) }
/// ```
package struct FileStatus: Sendable, Hashable {
    /// What kind of entry this is.
    package enum Kind: Sendable, Hashable {
        case regular, directory, symbolicLink, other
    }

    /// A point in time with nanoseconds, as the file system stores it.
    package struct Time: Sendable, Hashable {
        package var seconds: Int
        package var nanoseconds: Int

        package init(seconds: Int, nanoseconds: Int) {
            self.seconds = seconds
            self.nanoseconds = nanoseconds
        }

        init(_ time: timespec) { self.init(seconds: Int(time.tv_sec), nanoseconds: Int(time.tv_nsec)) }

        /// `date`, to the nanosecond.
        package init(_ date: Date) {
            let seconds = date.timeIntervalSince1970.rounded(.down)
            self.init(seconds: Int(seconds), nanoseconds: Int((date.timeIntervalSince1970 - seconds) * 1e9))
        }

        package var date: Date {
            Date(timeIntervalSince1970: TimeInterval(seconds) + TimeInterval(nanoseconds) / 1e9)
        }
    }

    package var kind: Kind
    /// The sticky bit (`S_ISVTX`): only owners may rename or remove entries of this folder.
    package var isSticky: Bool
    package var size: Int64
    /// The file system (`st_dev`); files can be linked or renamed only within one.
    package var device: UInt64
    package var inode: UInt64
    /// When the content last changed (`st_mtime`).
    package var modified: Time
    /// When the entry last changed, including getting its name (`st_ctime`).
    package var changed: Time
    /// How many names the file has (`st_nlink`): 0 once it, or a folder, was removed.
    package var linkCount: Int
    /// Who owns it (`st_uid`).
    package var owner: UInt32 = 0
    /// Its permission bits (`st_mode & 0o7777`).
    package var permissions: UInt32 = 0

    package init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        isSticky = (info.st_mode & S_ISVTX) != 0
        size = Int64(info.st_size)
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        modified = Time(info.modificationTime)
        changed = Time(info.statusChangeTime)
        linkCount = Int(info.st_nlink)
        owner = UInt32(info.st_uid)
        permissions = UInt32(info.st_mode & 0o7777)
    }
}

extension FileSystem {
    /// The status of `name` in `directory`, not following a symlink; `nil` when it does not exist.
    package static func fileStatus(of name: String, in directory: Descriptor) -> FileStatus? {
        status(of: name, in: directory).map(FileStatus.init)
    }

    /// The status of an open file or directory.
    package static func fileStatus(of file: Descriptor) throws(SystemError) -> FileStatus {
        var info = stat()
        guard fstat(file.fd, &info) == 0 else { throw SystemError("fstat", path: file.path, errno: errno) }
        return FileStatus(info)
    }

    /// Sets an open file's modification time (its access time too), as `cp -p` and `rsync -t` do.
    package static func setModificationTime(_ file: Descriptor, to time: FileStatus.Time) throws(SystemError) {
        if let code = FaultInjector.check(.write, file.path) {
            throw SystemError("futimens", path: file.path, errno: code)
        }
        let stamp = timespec(tv_sec: time_t(time.seconds), tv_nsec: Int(time.nanoseconds))
        let times = [stamp, stamp]
        guard futimens(file.fd, times) == 0 else { throw SystemError("futimens", path: file.path, errno: errno) }
    }
}
