import Foundation

/// The time libraries record (when a photo was saved, an album made, an asset deleted) and compare
/// deletion times with. Debug builds take `ALBUMKIT_NOW` (seconds since 1970, negative before it)
/// in its place, so that tests can run a process under a clock set before 1970 or years ahead;
/// release builds read the system clock.
///
/// ```swift
/// let now = LibraryClock.now().timeIntervalSince1970
/// ```
package enum LibraryClock {
    #if DEBUG
        private static let injected: TimeInterval? = ProcessInfo.processInfo.environment["ALBUMKIT_NOW"].flatMap {
            TimeInterval($0)
        }
    #endif

    /// Now, as the library records it.
    package static func now() -> Date {
        #if DEBUG
            if let injected { return Date(timeIntervalSince1970: injected) }
        #endif
        return Date()
    }

    /// The earliest deletion time believed: 2001-09-09 (10^9 s), before any AlbumKit library
    /// existed. An asset recorded as deleted earlier was deleted under a clock that was wrong; the
    /// 30-day rule never empties it (an explicit `album deleted --empty --days 0` or `purge` does).
    package static let earliestBelievable = Date(timeIntervalSince1970: 1_000_000_000)
}
