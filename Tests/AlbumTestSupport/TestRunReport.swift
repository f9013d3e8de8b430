import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What a test run did outside its own process, said in one line when the run ends: the real tools
/// and servers the tests ran against, and what was skipped and why.
///
/// ```
/// TestRunReport.shared.used("djpeg")
/// TestRunReport.shared.skipped("test", because: "giftext is not installed (apt-get install giflib-tools)")
/// TestRunReport.shared.atEnd { "Servers: stopped." }   // a line said before the summary line
/// ```
///
/// Swift Testing has no hook at the end of a run, so the line is printed by an `atexit` handler,
/// registered on first use: after the test library's own last line, as the test process exits. Both
/// lines go to stderr, where Swift Testing writes, so they come after its lines.
public final class TestRunReport: @unchecked Sendable {
    // @unchecked Sendable: every stored property is read and written only while `lock` is held.
    private let lock = NSLock()
    private var tools: Set<String> = []
    private var servers: [String] = []
    /// For each reason, how many of each kind of thing (`test`, `check`, `suite`) it skipped.
    private var skips: [String: [String: Int]] = [:]
    private var endings: [@Sendable () -> String] = []
    private var registered = false

    /// The one report of this test process.
    public static let shared = TestRunReport()

    private func withLock<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        if !registered {
            registered = true
            atexit { TestRunReport.shared.finish() }
        }
        return body()
    }

    /// A test ran `tool`.
    public func used(_ tool: String) { _ = withLock { tools.insert(tool) } }

    /// Tests ran against `server` (`"PostgreSQL 15 + SeaweedFS S3 on 127.0.0.1"`).
    public func ranAgainst(_ server: String) { withLock { if !servers.contains(server) { servers.append(server) } } }

    /// A `test`, a `check` of a test or a `suite` was skipped, for `reason`.
    public func skipped(_ what: String, because reason: String) {
        withLock { skips[reason, default: [:]][what, default: 0] += 1 }
    }

    /// Runs `body` when the run ends (stopping what the run started), and says the line it returns
    /// before the summary line.
    public func atEnd(_ body: @escaping @Sendable () -> String) { withLock { endings.append(body) } }

    /// The summary line.
    public var summary: String {
        withLock {
            var parts: [String] = []
            parts.append("real tools: " + (tools.isEmpty ? "none" : tools.sorted().joined(separator: ", ")))
            parts.append("real servers: " + (servers.isEmpty ? "none" : servers.joined(separator: ", ")))
            if skips.isEmpty {
                parts.append("nothing skipped")
            } else {
                let reasons = skips.sorted { $0.key < $1.key }.map { reason, counts in
                    let counted = counts.sorted { $0.key > $1.key }.map {
                        "\($0.value) \($0.key)\($0.value == 1 ? "" : "s")"
                    }
                    return reason + ": " + counted.joined(separator: " and ") + " skipped"
                }
                parts.append("outside CI (CI runs everything): " + reasons.joined(separator: "; "))
            }
            return "AlbumKit test run. " + parts.joined(separator: ". ") + "."
        }
    }

    private func finish() {
        let endings = withLock {
            defer { self.endings = [] }
            return self.endings
        }
        fflush(nil)  // what the tests printed on stdout comes first
        let lines = endings.map { $0() } + [summary]
        FileHandle.standardError.write(Data(lines.map { $0 + "\n" }.joined().utf8))
    }
}
