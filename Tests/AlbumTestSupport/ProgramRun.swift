#if os(Linux) || os(macOS)
    import Foundation

    /// Runs a program for a test and waits for it: `mount`, `umount` and the like, whose exit status is
    /// all a test asks of them.
    ///
    /// ```swift
    /// #expect(ProgramRun.status(["/bin/mount", "--bind", source.path, bound.path]) == 0)
    /// ```
    public enum ProgramRun {
        /// Runs the program `arguments[0]` with the rest as its arguments and returns its exit status
        /// (-1 when it cannot start).
        public static func status(_ arguments: [String]) -> Int32 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: arguments[0])
            process.arguments = Array(arguments.dropFirst())
            guard (try? process.run()) != nil else { return -1 }
            process.waitUntilExit()
            return process.terminationStatus
        }
    }
#endif
