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
    /// Opens (creating it unless `create` is `false`) the file at `path` for locking.
    package static func openLockFile(_ path: String, create: Bool = true) throws(SystemError) -> Descriptor {
        try injected(.open, path)
        let flags = O_RDWR | O_NOFOLLOW | O_CLOEXEC | (create ? O_CREAT : 0)
        let fd = retrying { open(path, flags, fileMode(for: path)) }
        guard fd >= 0 else { throw fail("open", path) }
        return Descriptor(fd: fd, path: path)
    }

    /// Takes an exclusive `flock` on `file`; without `wait`, fails with `EWOULDBLOCK` when another
    /// open file holds it. Released when the descriptor is closed or the process dies.
    package static func lock(_ file: Descriptor, wait: Bool) throws(SystemError) {
        try injected(.lock, file.path)
        guard retrying({ flock(file.fd, LOCK_EX | (wait ? 0 : LOCK_NB)) }) == 0 else { throw fail("flock", file.path) }
    }

    /// Releases the `flock` this descriptor holds.
    package static func unlock(_ file: Descriptor) {
        // Cannot fail for a valid descriptor; closing it releases the lock anyway.
        _ = retrying { flock(file.fd, LOCK_UN) }
    }
}
