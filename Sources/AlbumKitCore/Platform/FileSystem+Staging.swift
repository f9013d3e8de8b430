import AlbumKitMedia
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if os(Linux) || os(Android)
    internal import CShims
#endif

extension FileSystem {
    /// A file being written that no one else can see yet.
    package struct StagedFile: Sendable {
        package let descriptor: Descriptor
        /// The directory the file will be published in.
        package let directory: Descriptor
        /// The hidden name of the staged file when `O_TMPFILE` was unavailable.
        package let temporaryName: String?
    }

    /// Whether staging must use hidden `.partial` files even where `O_TMPFILE` works
    /// (``LibraryConfiguration/Staging/hiddenFiles``).
    static var forcesPartialFiles: Bool { LibraryConfiguration.current.staging == .hiddenFiles }

    /// Creates an invisible file in `directory`: an unnamed `O_TMPFILE` inode on Linux, else the
    /// hidden file `name` (a ``StagingName``), which recovery can attribute to its owner;
    /// `beforeNaming` runs first in that case (to record that this process stages hidden files).
    package static func stage(
        in directory: Descriptor, as name: StagingName, beforeNaming: () throws(SystemError) -> Void = {}
    ) throws(SystemError) -> StagedFile {
        #if os(Linux) || os(Android)
            if !forcesPartialFiles {
                let anonymous: Int32
                if let code = FaultInjector.check(.openTemporary, directory.path) {
                    errno = code
                    anonymous = -1
                } else if let madeAhead = takeStagedFileMadeAhead(for: directory) {
                    return StagedFile(descriptor: madeAhead, directory: directory, temporaryName: nil)
                } else {
                    anonymous = retrying { albumkit_open_tmpfile(directory.fd, fileMode(for: directory.path)) }
                }
                if anonymous >= 0 {
                    return StagedFile(
                        descriptor: Descriptor(fd: anonymous, path: directory.path + "/(staged)"),
                        directory: directory, temporaryName: nil)
                }
                let code = errno
                guard code == EOPNOTSUPP || code == EISDIR || code == EINVAL || code == ENOENT else {
                    throw fail("open(O_TMPFILE)", directory.path, code)
                }
            }
        #endif
        try beforeNaming()
        let path = directory.path + "/" + name.fileName
        try injected(.open, path)
        // Read-write: the shared library reads the staged copy back to upload it.
        let flags = O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        let fd = retrying { openat(directory.fd, name.fileName, flags, fileMode(for: path)) }
        guard fd >= 0 else { throw fail("open", path) }
        return StagedFile(
            descriptor: Descriptor(fd: fd, path: path), directory: directory, temporaryName: name.fileName)
    }

    /// Gives a staged file its final `name` in its directory without ever replacing an existing file.
    ///
    /// - Throws: `EEXIST` when the name is taken; `ENOENT` when the directory vanished.
    package static func publish(_ staged: StagedFile, as name: String) throws(SystemError) {
        let path = staged.directory.path + "/" + name
        try injected(.publish, path)
        if let temporary = staged.temporaryName {
            // link() never replaces; the hidden name is removed once the real one exists.
            guard linkat(staged.directory.fd, temporary, staged.directory.fd, name, 0) == 0 else {
                throw fail("link", path)
            }
            // The file is published; a hidden name left behind is swept as a leftover.
            _ = try? RemovalGate.removeFile(named: temporary, in: staged.directory)
            return
        }
        let procPath = "/proc/self/fd/\(staged.descriptor.fd)"
        guard linkat(AT_FDCWD, procPath, staged.directory.fd, name, AT_SYMLINK_FOLLOW) == 0 else {
            throw fail("linkat", path)
        }
    }

    /// Closes a staged file that will not be published and removes its hidden name, if any.
    package static func abandon(_ staged: StagedFile) {
        close(staged.descriptor)
        if let temporary = staged.temporaryName {
            // Cleanup of a hidden name we staged; one left behind is swept as a leftover.
            _ = try? RemovalGate.removeFile(named: temporary, in: staged.directory)
        }
    }
}
