/// Counts files and bytes as they are checked and reports each step (``VerificationProgress``):
/// the one counter every backend's `verify` and `repair` use.
///
/// ```swift
/// let counter = VerificationCounter(total: files.count, totalBytes: sizes, report: progress)
/// for file in files { check(file); counter.checked(size: file.size) }
/// ```
package final class VerificationCounter: Sendable {
    private let total: Int
    private let totalBytes: Int64
    private let done = Locked((files: 0, bytes: Int64(0)))
    private let report: (@Sendable (VerificationProgress) -> Void)?

    package init(total: Int, totalBytes: Int64, report: (@Sendable (VerificationProgress) -> Void)?) {
        self.total = total
        self.totalBytes = totalBytes
        self.report = report
    }

    /// One more file of `size` bytes is checked.
    package func checked(size: Int64) {
        guard let report else { return }
        let now = done.withLock { done in
            done.files += 1
            done.bytes += max(0, size)
            return done
        }
        report(VerificationProgress(completed: now.files, total: total, bytes: now.bytes, totalBytes: totalBytes))
    }
}
