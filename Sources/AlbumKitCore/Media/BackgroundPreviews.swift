import AlbumKitMedia

/// Thumbnails made after a save, in the background: a process-wide queue of assets whose kept
/// thumbnail sizes (256 and 512 pixels) are made by at most one worker per core, each at the lowest
/// priority (``Blocking/isBackground``), after the save was acknowledged. Nothing waits for them:
/// a save returns as before, the next save is not held back, and a process that exits meanwhile
/// loses only the thumbnails not made yet (each one is written whole or not at all: staged and
/// linked in a catalog, one PUT in a shared library), which are made on their first request.
///
/// ```swift
/// BackgroundPreviews.shared.make(ofAssetsWithIDs: [saved.assetID], in: keeping)
/// await BackgroundPreviews.shared.finished()   // tests, and a command that wants them before it exits
/// ```
package final class BackgroundPreviews: Sendable {
    /// The queue of this process.
    package static let shared = BackgroundPreviews()

    /// Assets waiting beyond this are left to their first request (a burst of uploads does not grow
    /// the queue without bound).
    static let mostWaiting = 10_000

    private struct Item: Sendable {
        let keeping: any PreviewKeeping
        let assetID: String
    }

    private struct State: Sendable {
        var waiting: [Item] = []
        var running = 0
        var whenIdle: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())
    /// Workers at once: one per core.
    private let lanes: Int

    init(lanes: Int = Blocking.width) { self.lanes = max(1, lanes) }

    /// Queues the thumbnails of `ids` in `keeping` and returns at once; workers start as lanes are
    /// free.
    package func make(ofAssetsWithIDs ids: [String], in keeping: any PreviewKeeping) {
        let starting = state.withLock { state -> Int in
            let room = max(0, Self.mostWaiting - state.waiting.count)
            state.waiting += ids.prefix(room).map { Item(keeping: keeping, assetID: $0) }
            let starting = min(lanes - state.running, state.waiting.count)
            state.running += max(0, starting)
            return starting
        }
        for _ in 0..<max(0, starting) {
            Task.detached(priority: .background) { await self.work() }
        }
    }

    /// Resumes once nothing is waiting or being made.
    package func finished() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state -> Bool in
                guard state.running > 0 || !state.waiting.isEmpty else { return true }
                state.whenIdle.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// One worker: takes the next asset until none is left.
    private func work() async {
        while let item = next() {
            await Blocking.$isBackground.withValue(true) {
                for size in item.keeping.keptSizes where size <= .largeThumbnail {
                    // A thumbnail that cannot be made now (a photo that does not decode, no libvips,
                    // the library busy) is made, or its error given, on its first request.
                    guard (try? await item.keeping.preview(ofAssetWithID: item.assetID, size: size)) != nil else {
                        break
                    }
                }
            }
        }
    }

    /// The next asset, or `nil` when none is waiting (the worker ends, and the idle are told).
    private func next() -> Item? {
        let (item, idle) = state.withLock { state -> (Item?, [CheckedContinuation<Void, Never>]) in
            if !state.waiting.isEmpty { return (state.waiting.removeFirst(), []) }
            state.running -= 1
            guard state.running == 0 else { return (nil, []) }
            defer { state.whenIdle = [] }
            return (nil, state.whenIdle)
        }
        for continuation in idle { continuation.resume() }
        return item
    }
}
