import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call: the call, the path it was about, and `errno`.
package struct SystemError: Error, Sendable, CustomStringConvertible {
    package let call: String
    package let path: String
    package let errno: Int32

    package init(_ call: String, path: String, errno: Int32) {
        self.call = call
        self.path = path
        self.errno = errno
    }

    package var description: String { "\(call)(\(path)): \(String(cString: strerror(errno)))" }

    package var posix: POSIXError? { POSIXErrorCode(rawValue: errno).map { POSIXError($0) } }

    /// Maps this failure, on a file of the library, onto an `AlbumError`.
    package func libraryError(_ what: String) -> AlbumError {
        let reason = String(cString: strerror(errno))
        switch errno {
        case ENOSPC, EDQUOT:
            return AlbumError(
                .notEnoughSpace, "Not enough space to \(what) (\(path)); free some space and try again.",
                underlying: self)
        case EROFS:
            return AlbumError(
                .libraryUnwritable, "Cannot \(what): \(path) is on a read-only file system.", underlying: self)
        case EACCES, EPERM:
            return AlbumError(
                .accessDenied, "Cannot \(what): permission denied for \(path).", underlying: self)
        case ENOENT, ENOTDIR:
            return AlbumError(
                .libraryNotFound,
                "Cannot \(what): \(path) does not exist (was the library moved or its disk unmounted?).",
                underlying: self)
        default:
            return AlbumError(.ioFailure, "Cannot \(what) (\(path)): \(reason).", underlying: self)
        }
    }

    /// Maps this failure, on an input file, onto an `AlbumError` naming the file.
    package func inputError(file: String) -> AlbumError {
        switch errno {
        case ENOENT, ENOTDIR:
            return AlbumError(.fileNotFound, "\(file): no such file.", file: file, underlying: self)
        case EACCES, EPERM:
            return AlbumError(
                .fileUnreadable, "\(file): permission denied; make the file readable.", file: file, underlying: self)
        case EISDIR:
            return AlbumError(
                .fileUnreadable, "\(file) is a directory, not a photo or video.", file: file, underlying: self)
        default:
            return AlbumError(
                .fileUnreadable, "\(file) cannot be read: \(String(cString: strerror(errno))).", file: file,
                underlying: self)
        }
    }
}
