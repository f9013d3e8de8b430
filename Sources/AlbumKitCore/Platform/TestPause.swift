import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Debug builds only: lets the crash and fault tests stop a saver at a named step of a save
/// protocol. With `ALBUMKIT_PAUSE=STEP` and `ALBUMKIT_PAUSE_MARKER=FILE`, the saver writes a
/// process id to FILE at STEP and waits (up to 60 s) until the test removes FILE; it pauses once
/// (FILE.done records that it did).
///
/// ```swift
/// TestPause.at("before-record")  // a catalog save: files named and flushed, no record yet
/// ```
package enum TestPause {
    /// Steps: a catalog's `before-record` (the files' data and names flushed, the save decided
    /// under the journal's lock, its record not appended) and `after-acknowledge` (the record
    /// flushed and the caller told, the index's transaction not committed); a shared library's `before-upload`, `after-upload`, `in-commit` (transaction B open,
    /// its lock held, nothing committed; its rows written only when companions make `COMMIT` a round trip of its own), `after-commit`; a copy's `copy-batch` (a batch saved, the next not begun); `--move`'s `source-hashed` (a source read
    /// again and hashed, not yet checked unchanged nor removed); `folder-made` (a folder just made, its mode not yet given).
    /// `pid` is what the test may signal (default: this process).
    package static func at(_ step: String, pid: @autoclosure () -> Int32 = getpid()) {
        #if DEBUG
            let environment = ProcessInfo.processInfo.environment
            guard environment["ALBUMKIT_PAUSE"] == step,
                let marker = environment["ALBUMKIT_PAUSE_MARKER"],
                !FileManager.default.fileExists(atPath: marker + ".done")
            else { return }
            _ = FileManager.default.createFile(atPath: marker + ".done", contents: nil)
            _ = FileManager.default.createFile(atPath: marker, contents: Data("\(pid())".utf8))
            let deadline = Date().addingTimeInterval(60)
            while FileManager.default.fileExists(atPath: marker), Date() < deadline { usleep(20_000) }
        #endif
    }
}
