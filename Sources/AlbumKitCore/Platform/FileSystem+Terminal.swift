#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileSystem {
    /// How many columns the terminal on standard output has: `chosen` when given (a user's
    /// choice, such as the CLI's `$COLUMNS`, wins), else the terminal's own size; `nil` when
    /// standard output is not a terminal (a pipe or a file: scripts get every column).
    ///
    /// ```swift
    /// if let columns = FileSystem.terminalColumns(chosen: nil) { print("fit to", columns) }
    /// ```
    package static func terminalColumns(chosen: Int?) -> Int? {
        guard isatty(STDOUT_FILENO) == 1 else { return nil }
        if let chosen, chosen > 0 { return chosen }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
