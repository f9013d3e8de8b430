import AlbumKitMedia

/// A save's progress: counted, and handed to the caller's callback one report at a time, in the
/// order the reports were counted, without holding back the threads that count them.
///
/// Items are prepared on the staging threads while earlier ones are committed on the saving task.
/// Whichever thread counts a report while none is being delivered delivers it, and then every
/// report counted by others meanwhile; those others only queue theirs and go on. A slow callback
/// slows the one thread delivering, never the rest of the batch, and `fraction` never moves back.
///
/// ```swift
/// let reports = ProgressReports(total: media.count) { print($0.fraction) }
/// reports.itemPrepared()
/// reports.itemFinished(failed: false)
/// ```
final class ProgressReports: Sendable {
    private struct State {
        var prepared = 0
        var completed = 0
        var failed = 0
        var waiting: [SaveProgress] = []
        var delivering = false
    }

    private let state = Locked(State())
    private let total: Int
    private let callback: (@Sendable (SaveProgress) -> Void)?

    init(total: Int, callback: (@Sendable (SaveProgress) -> Void)?) {
        self.total = total
        self.callback = callback
    }

    /// One more item read, checked and copied (or recognised as already held).
    func itemPrepared() {
        count { state in
            state.prepared += 1
            var value = SaveProgress(completed: state.completed, total: total, failed: state.failed)
            value.prepared = state.prepared
            return value
        }
    }

    /// One more item final: durable, or failed.
    func itemFinished(failed: Bool) {
        count { state in
            state.completed += 1
            if failed { state.failed += 1 }
            var value = SaveProgress(completed: state.completed, total: total, failed: state.failed)
            value.prepared = max(state.prepared, state.completed)
            return value
        }
    }

    private func count(_ change: (inout State) -> SaveProgress) {
        guard let callback else { return }
        let delivers = state.withLock { state in
            state.waiting.append(change(&state))
            guard !state.delivering else { return false }
            state.delivering = true
            return true
        }
        guard delivers else { return }
        while true {
            let batch = state.withLock { state in
                let batch = state.waiting
                state.waiting.removeAll(keepingCapacity: true)
                if batch.isEmpty { state.delivering = false }
                return batch
            }
            if batch.isEmpty { return }
            for value in batch { callback(value) }
        }
    }
}
