import AlbumKit
import Foundation

/// The one-line progress display on stderr: files done of total, percent, rate and time left,
/// redrawn at most ten times a second, per file. Drawn only when stderr is a terminal (also with
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
    }
    private let state = Locked(State())

    /// Starts drawing for `total` items when stderr is a terminal.
    func start(total: Int, enabled: Bool, noun: String = "files") {
        state.withLock {
            $0 = State(enabled: enabled && total > 0, started: Date(), total: total, noun: noun)
        }
    }

    /// `done` items of the total are finished (or prepared).
    func update(_ done: Int) {
        let text: String? = state.withLock { s in
            guard s.enabled, done > s.done else { return nil }
            s.done = done
            let now = Date()
            guard now.timeIntervalSince(s.lastDraw) >= 0.1 || s.done == s.total else { return nil }
            s.lastDraw = now
            s.visible = true
            return Self.render(done: s.done, total: s.total, elapsed: now.timeIntervalSince(s.started), noun: s.noun)
        }
        if let text { Output.rawErr("\r\u{1B}[K" + text) }
    }

    static func render(done: Int, total: Int, elapsed: TimeInterval, noun: String) -> String {
        let percent = total == 0 ? 100 : done * 100 / total
        var text = "\(done)/\(total) \(noun) \(percent)%"
        guard elapsed > 0.2, done > 0 else { return text }
        let rate = Double(done) / elapsed
        text += String(format: "  %.1f/s", rate)
        if done < total {
            let left = Int((Double(total - done) / rate).rounded(.up))
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
