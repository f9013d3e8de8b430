import AlbumKit
import AlbumKitMedia
import Dispatch

/// The library's changes as server-sent events, for one page that listens (`GET /api/events`):
/// a photo saved by the CLI, another server or another machine shows without reloading.
///
/// The library's change feed is read by a task of its own; the response's reader (on the
/// connection's thread) waits for the next change, and sends a comment every 15 s meanwhile so that
/// proxies keep the connection. When the page goes away the response is released, and with it the task.
///
/// ```swift
/// let live = LiveChanges(library: library)
/// let bytes = live.next()   // "data: {…}\n\n", or ": still here\n\n" after 15 s without a change
/// ```
final class LiveChanges: Sendable {
    private let pending: Locked<[String]>
    private let arrived: DispatchSemaphore
    private let task: Task<Void, Never>

    init(library: PhotoLibrary, interval: Duration = .seconds(1)) {
        let pending = Locked<[String]>([])
        let arrived = DispatchSemaphore(value: 0)
        self.pending = pending
        self.arrived = arrived
        task = Task {
            do {
                for try await change in library.changes(interval: interval) {
                    let albums = (change.insertedAlbumIDs + change.changedAlbumIDs + change.removedAlbumIDs)
                    let assets =
                        change.insertedAssetIDs.count + change.removedAssetIDs.count + change.changedAssetIDs.count
                    let quoted = albums.map { "\"\($0.filter { $0 != "\"" && $0 != "\\" })\"" }.joined(separator: ",")
                    pending.withLock { $0.append("{\"albums\":[\(quoted)],\"assets\":\(assets)}") }
                    arrived.signal()
                }
            } catch {
                // The feed failed (the library went away): the page is told to reload.
                pending.withLock { $0.append("{\"reload\":true}") }
                arrived.signal()
            }
        }
    }

    deinit { task.cancel() }

    /// The next events, waiting up to 15 s for one; a comment line when none came.
    func next() -> [UInt8] {
        guard arrived.wait(timeout: .now() + 15) == .success else { return Array(": still here\n\n".utf8) }
        let lines = pending.withLock { lines in
            defer { lines.removeAll() }
            return lines
        }
        // The semaphore was signalled once per line: those already taken are not waited for again.
        for _ in 1..<max(1, lines.count) { _ = arrived.wait(timeout: .now()) }
        guard !lines.isEmpty else { return Array(": still here\n\n".utf8) }
        return Array(lines.map { "data: \($0)\n\n" }.joined().utf8)
    }
}
