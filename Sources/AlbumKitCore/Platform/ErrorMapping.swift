#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A lower-level failure of a library's storage that knows how it reads as an `AlbumError` (the
/// catalog's SQLite results).
package protocol LibraryFailure: Error {
    /// This failure, while doing `what` to the file at `path`, as an `AlbumError`.
    func libraryError(_ what: String, path: String) -> AlbumError
}

/// Where every lower-level failure becomes an `AlbumError`: system calls on the library's files,
/// system calls on input files, and SQLite results. Backends call these; none maps on its own.
extension AlbumError {
    /// Maps any failure while doing `what` to the library (at `path`, for SQLite failures).
    package static func library(_ error: any Error, _ what: String, path: String) -> AlbumError {
        switch error {
        case let error as AlbumError: return error
        case let error as SystemError: return error.libraryError(what)
        case let error as any LibraryFailure: return error.libraryError(what, path: path)
        default: return wrap(error)
        }
    }
}

extension SystemError {
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
        case EMFILE, ENFILE:
            return AlbumError(
                .ioFailure, "Cannot \(what) (\(path)): too many open files; raise `ulimit -n`.", underlying: self)
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
        case EINVAL:
            return AlbumError(
                .fileUnreadable,
                "\(file) is not a regular file (a pipe, socket or device); only photo and video files can be saved.",
                file: file, underlying: self)
        case EMFILE, ENFILE:
            return AlbumError(
                .fileUnreadable, "\(file) cannot be opened: too many open files; raise `ulimit -n`.", file: file,
                underlying: self)
        default:
            return AlbumError(
                .fileUnreadable, "\(file) cannot be read: \(String(cString: strerror(errno))).", file: file,
                underlying: self)
        }
    }
}

extension AlbumError {
    /// The catalog is damaged: nothing was changed, and `album repair` rebuilds it.
    package static func catalogDamaged(_ path: String, detail: String? = nil, underlying: (any Error)? = nil)
        -> AlbumError
    {
        AlbumError(
            .libraryCorrupt,
            "The catalog \(path) is damaged or not an AlbumKit catalog\(detail.map { " (\($0))" } ?? ""); nothing was changed. Run `album repair` to rebuild it from the library's save journal and originals.",
            underlying: underlying)
    }
}
