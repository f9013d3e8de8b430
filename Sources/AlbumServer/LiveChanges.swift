import AlbumKit
import AlbumKitMedia
import Dispatch

/// The library's changes as server-sent events, for every page that listens (`GET /api/events`):
/// a photo saved by the CLI, another server or another machine shows without reloading.
///
/// One change feed of the library per server, started with it and shared by the pages: following a
/// catalog starts with a read of every asset and membership (under the index's lock), which each
/// page paid before its first screen when it had a feed of its own (1.4 s at 100 000 photos, the
/// grid's requests waiting behind it). Each page's ``Listener`` keeps the events it has not sent
/// yet; the response's reader (on the connection's thread) waits for the next, and sends a comment
/// every 15 s meanwhile so that proxies keep the connection. When the page goes away the response
/// is released, and with it the listener.
///
/// ```swift
/// let live = LiveChanges(library: library)
/// let listener = live.listen()
/// let bytes = listener.next()   // "data: {…}\n\n", or ": still here\n\n" after 15 s without a change
/// ```
package final class LiveChanges: Sendable {
    /// The listeners by number, and whether the feed ended (a listener that comes later is told
    /// to reload at once).
    private let listeners = Locked<(next: Int, queues: [Int: Queue], ended: Bool)>((0, [:], false))
    private let task: Task<Void, Never>

    package init(library: PhotoLibrary, interval: Duration = .seconds(1)) {
        task = Task { [listeners] in
            do {
                for try await change in library.changes(interval: interval) {
                    let albums = (change.insertedAlbumIDs + change.changedAlbumIDs + change.removedAlbumIDs)
                    let assets =
                        change.insertedAssetIDs.count + change.removedAssetIDs.count + change.changedAssetIDs.count
                    let quoted = albums.map { "\"\($0.filter { $0 != "\"" && $0 != "\\" })\"" }.joined(separator: ",")
                    Self.send("{\"albums\":[\(quoted)],\"assets\":\(assets)}", to: listeners, ending: false)
                }
            } catch {
                // The feed failed (the library went away): the pages are told to reload.
                Self.send("{\"reload\":true}", to: listeners, ending: true)
            }
        }
    }

    deinit { task.cancel() }

    /// A listener for one page, from now on.
    package func listen() -> Listener {
        let queue = Queue()
        let number = listeners.withLock { state -> Int? in
            guard !state.ended else { return nil }
            state.next += 1
            state.queues[state.next] = queue
            return state.next
        }
        guard let number else {
            queue.add("{\"reload\":true}")
            return Listener(queue: queue) {}
        }
        return Listener(queue: queue) { [listeners] in _ = listeners.withLock { $0.queues.removeValue(forKey: number) }
        }
    }

    /// How many pages listen now.
    package var listening: Int { listeners.withLock { $0.queues.count } }

    private static func send(
        _ line: String, to listeners: Locked<(next: Int, queues: [Int: Queue], ended: Bool)>, ending: Bool
    ) {
        let queues = listeners.withLock { state in
            if ending { state.ended = true }
            return Array(state.queues.values)
        }
        for queue in queues { queue.add(line) }
    }

    /// The events one page has not been sent yet.
    package final class Queue: Sendable {
        private let pending = Locked<[String]>([])
        private let arrived = DispatchSemaphore(value: 0)

        func add(_ line: String) {
            pending.withLock { $0.append(line) }
            arrived.signal()
        }

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

    /// One page's events; it stops listening when released.
    package final class Listener: Sendable {
        private let queue: Queue
        private let leave: @Sendable () -> Void

        init(queue: Queue, leave: @escaping @Sendable () -> Void) {
            self.queue = queue
            self.leave = leave
        }

        deinit { leave() }

        /// The next events (``Queue/next()``).
        package func next() -> [UInt8] { queue.next() }
    }
}
