import AlbumKit
import Foundation

/// The one-line progress display on stderr: files done of total, bytes done of total when known,
/// percent, rate (bytes per second when bytes are known) and time left, redrawn at most ten times a
/// second, per file. Drawn only when stderr is a terminal (also with
/// `--json` or stdout redirected), never with `-q`.
final class ProgressLine: Sendable {
    static let shared = ProgressLine()

    private struct State {
        var enabled = false
        var visible = false
        var started = Date()
        var lastDraw = Date.distantPast
        var done = 0
        var total = 0
        var noun = "files"
        /// Bytes done and in all, when the caller knows them.
        var bytes: Int64 = 0
        var totalBytes: Int64?
    }
    private let state = Locked(State())

    /// Starts drawing for `total` items when stderr is a terminal.
    func start(total: Int, enabled: Bool, noun: String = "files", totalBytes: Int64? = nil) {
        state.withLock {
            $0 = State(
                enabled: enabled && total > 0, started: Date(), total: total, noun: noun, totalBytes: totalBytes)
        }
    }

    /// A callback for work that reports (done, total, bytes done, total bytes) after each file,
    /// whose total it learns with the first report (export, verify, repair): starts the line then,
    /// and draws nothing unless `enabled` (stderr a terminal, no `-q`) and more than one file.
    ///
    /// ```swift
    /// let draw = ProgressLine.drawer(enabled: Output.isTerminal && !arguments.quiet)
    /// try await library.verify { draw($0.completed, $0.total, $0.bytes, $0.totalBytes) }
    /// ```
    static func drawer(enabled: Bool) -> @Sendable (Int, Int, Int64, Int64) -> Void {
        let started = Locked(false)
        return { done, total, bytes, totalBytes in
            guard enabled else { return }
            let first = started.withLock { wasStarted in
                defer { wasStarted = true }
                return !wasStarted
            }
            if first { shared.start(total: total, enabled: total > 1, totalBytes: totalBytes) }
            shared.update(done, bytes: bytes)
        }
    }

    /// `done` items of the total are finished, holding `bytes` bytes in all (when known).
    func update(_ done: Int, bytes: Int64 = 0) {
        let text: String? = state.withLock { s in
            guard s.enabled, done > s.done else { return nil }
            s.done = done
            s.bytes = bytes
            let now = Date()
            guard now.timeIntervalSince(s.lastDraw) >= 0.1 || s.done == s.total else { return nil }
            s.lastDraw = now
            s.visible = true
            return Self.render(
                done: s.done, total: s.total, elapsed: now.timeIntervalSince(s.started), noun: s.noun,
                bytes: s.totalBytes.map { (s.bytes, $0) })
        }
        if let text { Output.rawErr("\r\u{1B}[K" + text) }
    }

    /// `3/10 files, 12 MB of 40 MB 30%  8.0 MB/s  0:04 left`: by bytes when `bytes` (done, total)
    /// is given, else by files.
    ///
    /// ```swift
    /// ProgressLine.render(done: 3, total: 10, elapsed: 1.5, noun: "files", bytes: (12_000_000, 40_000_000))
    /// ```
    static func render(
        done: Int, total: Int, elapsed: TimeInterval, noun: String, bytes: (done: Int64, total: Int64)? = nil
    ) -> String {
        let fraction =
            bytes.map { $0.total > 0 ? Double($0.done) / Double($0.total) : 1 }
            ?? (total == 0 ? 1 : Double(done) / Double(total))
        var text = "\(done)/\(total) \(noun)"
        if let bytes { text += ", \(Output.size(bytes.done)) of \(Output.size(bytes.total))" }
        text += " \(Int(fraction * 100))%"
        guard elapsed > 0.2, done > 0 else { return text }
        let rate: Double  // units (bytes or files) per second
        let remaining: Double
        if let bytes {
            rate = Double(bytes.done) / elapsed
            remaining = Double(bytes.total - bytes.done)
            text += "  \(Output.size(Int64(rate)))/s"
        } else {
            rate = Double(done) / elapsed
            remaining = Double(total - done)
            text += String(format: "  %.1f/s", rate)
        }
        if done < total, rate > 0 {
            let left = Int((remaining / rate).rounded(.up))
            text +=
                "  "
                + (left >= 3600
                    ? "\(left / 3600)h\(left % 3600 / 60)m" : "\(left / 60):" + String(format: "%02d", left % 60))
                + " left"
        }
        return text
    }

    /// Erases the line before other output; `toTerminal` is whether that output goes to the terminal.
    func clearForOutput(toTerminal: Bool) {
        let erase = state.withLock { s -> Bool in
            guard s.visible, toTerminal else { return false }
            s.visible = false
            s.lastDraw = .distantPast
            return true
        }
        if erase { Output.rawErr("\r\u{1B}[K") }
    }

    /// Stops drawing and ends the line (after the last update or on Ctrl-C).
    func stop() {
        let erase = state.withLock { s -> Bool in
            defer {
                s.enabled = false
                s.visible = false
            }
            return s.visible
        }
        if erase { Output.rawErr("\r\u{1B}[K") }
    }
}
