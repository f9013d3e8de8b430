import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// File times under one name on every platform: Glibc calls the fields `st_mtim` / `st_ctim`,
/// Darwin `st_mtimespec` / `st_ctimespec`.
extension stat {
    /// When the file's contents last changed.
    ///
    /// ```swift
    /// let modified = info.modificationTime.date
    /// ```
    package var modificationTime: timespec {
        #if canImport(Darwin)
            st_mtimespec
        #else
            st_mtim
        #endif
    }

    /// When the file's inode last changed (its name, links, permissions or contents).
    ///
    /// ```swift
    /// let addedAt = info.statusChangeTime.date
    /// ```
    package var statusChangeTime: timespec {
        #if canImport(Darwin)
            st_ctimespec
        #else
            st_ctim
        #endif
    }
}

extension timespec {
    /// The time as a `Date`, nanoseconds included.
    ///
    /// ```swift
    /// let modified = info.modificationTime.date
    /// ```
    package var date: Date {
        Date(timeIntervalSince1970: TimeInterval(tv_sec) + TimeInterval(tv_nsec) / 1e9)
    }
}
