import AlbumKitCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SQLite results as `AlbumError`s: the one place the catalog's SQLite failures are mapped.
extension SQLiteError: LibraryFailure {
    /// Maps this failure, while doing `what` to the catalog at `path`, onto an `AlbumError`.
    package func libraryError(_ what: String, path: String) -> AlbumError {
        typealias C = SQLiteError.Code
        // A page failed its checksum (the catalog's VFS): damage, whatever errno was left behind.
        if code == C.ioErrorData {
            return AlbumError.catalogDamaged(path, detail: "a page fails its checksum", underlying: self)
        }
        // An I/O failure carries the operating system's reason: map that first.
        if systemErrno != 0, [C.ioError, C.full, C.cannotOpen].contains(primaryCode) {
            let mapped = SystemError("sqlite", path: path, errno: systemErrno).libraryError(what)
            if mapped.code != .ioFailure || [EMFILE, ENFILE].contains(systemErrno) {
                return AlbumError(mapped.code, mapped.message, underlying: self)
            }
        }
        if code == C.ioErrorShmSize {
            return AlbumError(
                .notEnoughSpace, "Not enough space to \(what) (\(path)); free some space.", underlying: self)
        }
        if code == C.ioErrorAccess {
            return AlbumError(.libraryNotFound, "Cannot \(what): the library \(path) disappeared.", underlying: self)
        }
        switch primaryCode {
        case C.full:
            return AlbumError(
                .notEnoughSpace, "Not enough space to \(what) (\(path)); free some space.", underlying: self)
        case C.readOnly:
            return AlbumError(.libraryUnwritable, "Cannot \(what): the catalog \(path) is read-only.", underlying: self)
        case C.corrupt, C.notADatabase:
            return AlbumError.catalogDamaged(path, underlying: self)
        case C.busy, C.locked:
            return AlbumError(.libraryBusy, "The library \(path) stayed busy too long; try again.", underlying: self)
        case C.cannotOpen:
            return AlbumError(
                .libraryNotFound, "Cannot open the catalog \(path); does the library folder exist?", underlying: self)
        case C.permission:
            return AlbumError(.accessDenied, "Cannot \(what): permission denied for \(path).", underlying: self)
        default:
            return AlbumError(.ioFailure, "Cannot \(what) (\(path)): \(message).", underlying: self)
        }
    }
}
