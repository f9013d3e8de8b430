#if os(Linux)
    import Foundation

    /// Debug builds only: lets the crash and fault tests stop a saver at a named step of the save
    /// protocol. With `ALBUMKIT_SHARED_PAUSE=STEP` and `ALBUMKIT_SHARED_PAUSE_MARKER=FILE`, the saver
    /// writes its database session's pid to FILE at STEP and waits (up to 60 s) until the test removes
    /// FILE; it pauses once (FILE.done records that it did).
    enum TestPause {
        /// Steps: `before-upload`, `after-upload`, `in-commit` (rows written, not committed), `after-commit`.
        static func at(_ step: String, sessionPID: @autoclosure () -> Int32) {
            #if DEBUG
                let environment = ProcessInfo.processInfo.environment
                guard environment["ALBUMKIT_SHARED_PAUSE"] == step,
                    let marker = environment["ALBUMKIT_SHARED_PAUSE_MARKER"],
                    !FileManager.default.fileExists(atPath: marker + ".done")
                else { return }
                _ = FileManager.default.createFile(atPath: marker + ".done", contents: nil)
                _ = FileManager.default.createFile(atPath: marker, contents: Data("\(sessionPID())".utf8))
                let deadline = Date().addingTimeInterval(60)
                while FileManager.default.fileExists(atPath: marker), Date() < deadline { usleep(20_000) }
            #endif
        }
    }
#endif
