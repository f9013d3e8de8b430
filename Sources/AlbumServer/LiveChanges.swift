import AlbumKit
import AlbumKitMedia
import Dispatch

/// The library's changes as server-sent events, for every page that listens (`GET /api/events`):
/// a photo saved by the CLI, another server or another machine shows without reloading.
///
/// One feed of the library's changes per server, started with it and shared by the pages. It
/// follows what the changes touch (``PhotoLibrary/touches(interval:)``), which is all a page needs:
/// on a catalog that is its journal's records alone, so a server over a million photos reads
/// nothing of them when it starts and keeps none of their identifiers. Each page's ``Listener``
/// keeps the events it has not sent yet; the response's reader (on the connection's thread) waits for the next, and sends a
/// comment every 15 s meanwhile so that proxies keep the connection. While it waits it looks every
/// quarter of a second whether the page closed its connection: when it did, the response ends,
/// which lets go of the connection's thread and releases the listener.
///
/// A share link's guest listens to its one album only (``listen(album:link:whileOpen:)``): the events it
/// is sent name that album and nothing else, a change elsewhere in the library sends it nothing,
/// and once its link is revoked or expires (looked at every 2 s) it is told to reload, which shows
/// the link's closed page.
///
/// ```swift
/// let live = LiveChanges(library: library)
/// let listener = live.listen()
/// let bytes = listener.next()   // "data: {…}\n\n", or ": still here\n\n" after 15 s without a change
/// ```
package final class LiveChanges: Sendable {
    /// One change of the library as the pages hear it.
    struct Event: Sendable {
        var albums: [String] = []
        var assets = 0
        /// The feed failed (the library could not be read): the page reloads.
        var reload = false
    }

    /// The listeners by number.
    private let listeners = Locked<(next: Int, queues: [Int: Queue])>((0, [:]))
    /// How many listeners each share link's guests hold now.
    private let guests = Locked<[String: Int]>([:])
    /// How many change feeds the guests of one share link may hold at once (a page each), and
    /// the guests of every link together: the server's other connections (64 in all) stay for
    /// the owner and the other requests, whatever a link's holder opens.
    package static let listenersPerLink = 8
    package static let guestListeners = 24
    private let task: Task<Void, Never>

    package init(library: PhotoLibrary, interval: Duration = .seconds(1)) {
        task = Task { [listeners] in
            // A feed that fails (a database down longer than the library retries it) starts again,
            // 1, 2, 4… at most 30 s later: the pages stay, and hear the changes once it is back.
            var pause = Duration.seconds(1)
            var told = false
            while !Task.isCancelled {
                do {
                    for try await touch in library.touches(interval: interval) {
                        (pause, told) = (.seconds(1), false)
                        Self.send(Event(albums: touch.albumIDs, assets: touch.assets), to: listeners)
                    }
                    return
                } catch {
                    // What the pages show may have changed unheard: they are told to reload, once
                    // until the feed is heard again.
                    if !told { Self.send(Event(reload: true), to: listeners) }
                    told = true
                }
                try? await Task.sleep(for: pause)  // cancelled: the loop ends at its next look
                pause = min(pause * 2, .seconds(30))
            }
        }
    }

    deinit { task.cancel() }

    /// A listener for one page, from now on: every change of the library.
    package func listen() -> Listener { listen(filter: nil) }

    /// A listener for a share link's guest, from now on: the changes of album `albumID` alone, as
    /// events naming only it; told to reload as soon as `whileOpen` says the link no longer opens.
    /// `nil` when the guests of `link` hold ``listenersPerLink`` listeners, or all guests
    /// ``guestListeners``.
    package func listen(album albumID: String, link: String, whileOpen: @escaping @Sendable () -> Bool)
        -> Listener?
    {
        let admitted = guests.withLock { held in
            guard held[link, default: 0] < Self.listenersPerLink,
                held.values.reduce(0, +) < Self.guestListeners
            else { return false }
            held[link, default: 0] += 1
            return true
        }
        guard admitted else { return nil }
        return listen(filter: Filter(album: albumID, isOpen: whileOpen)) { [guests] in
            guests.withLock { held in
                held[link, default: 1] -= 1
                if held[link] == 0 { held[link] = nil }
            }
        }
    }

    private func listen(filter: Filter?, leaving: @escaping @Sendable () -> Void = {}) -> Listener {
        let queue = Queue()
        let number = listeners.withLock { state in
            state.next += 1
            state.queues[state.next] = queue
            return state.next
        }
        return Listener(queue: queue, filter: filter) { [listeners] in
            _ = listeners.withLock { $0.queues.removeValue(forKey: number) }
            leaving()
        }
    }

    /// How many pages listen now.
    package var listening: Int { listeners.withLock { $0.queues.count } }

    private static func send(_ event: Event, to listeners: Locked<(next: Int, queues: [Int: Queue])>) {
        for queue in listeners.withLock({ Array($0.queues.values) }) { queue.add(event) }
    }

    /// What a guest's listener passes on: the changes of its album, while its link opens.
    struct Filter: Sendable {
        var album: String
        var isOpen: @Sendable () -> Bool
    }

    /// The events one page has not been sent yet.
    package final class Queue: Sendable {
        private let pending = Locked<[Event]>([])
        private let arrived = DispatchSemaphore(value: 0)

        func add(_ event: Event) {
            pending.withLock { $0.append(event) }
            arrived.signal()
        }

        /// The events that came, waiting up to `seconds` for one; none when none came.
        func take(waiting seconds: Double) -> [Event] {
            guard arrived.wait(timeout: .now() + seconds) == .success else { return [] }
            let events = pending.withLock { events in
                defer { events.removeAll() }
                return events
            }
            // The semaphore was signalled once per event: those already taken are not waited for again.
            for _ in 1..<max(1, events.count) { _ = arrived.wait(timeout: .now()) }
            return events
        }
    }

    /// One page's events; it stops listening when released.
    package final class Listener: Sendable {
        private let queue: Queue
        private let filter: Filter?
        private let leave: @Sendable () -> Void
        /// Whether the guest was told to reload: the stream ends after that.
        private let closed = Locked(false)

        init(queue: Queue, filter: Filter?, leave: @escaping @Sendable () -> Void) {
            self.queue = queue
            self.filter = filter
            self.leave = leave
        }

        deinit { leave() }

        /// How long ``next(whileConnected:)`` waits between two looks at whether the page is still there.
        static let glance = 0.25

        /// The next events as server-sent event lines, waiting up to 15 s for one; a comment line
        /// when none came. Empty (the response ends) once a guest was told its link closed, or as
        /// soon as `connected` says the page went away (asked every quarter of a second while
        /// waiting, so a closed page's connection and thread are let go at once).
        package func next(whileConnected connected: () -> Bool = { true }) -> [UInt8] {
            guard !closed.withLock({ $0 }) else { return [] }
            let clock = ContinuousClock()
            let end = clock.now.advanced(by: .seconds(15))
            // A guest's link is looked at every 2 s while nothing comes for its album.
            var linkLooked: ContinuousClock.Instant?
            while clock.now < end {
                if let filter, linkLooked.map({ clock.now >= $0.advanced(by: .seconds(2)) }) ?? true {
                    guard filter.isOpen() else { return told() }
                    linkLooked = clock.now
                }
                let events = queue.take(waiting: Self.glance)
                if let filter {
                    if events.contains(where: \.reload) { return told() }
                    if events.contains(where: { $0.albums.contains(filter.album) }) {
                        return Self.lines(["{\"albums\":[\(LibraryWebHandler.jsonString(filter.album))]}"])
                    }
                } else if !events.isEmpty {
                    return Self.lines(events.map(Self.json))
                }
                guard connected() else { return [] }
            }
            return Self.lines([])
        }

        /// Tells a guest to reload (its link closed); the stream ends after that.
        private func told() -> [UInt8] {
            closed.withLock { $0 = true }
            return Self.lines(["{\"reload\":true}"])
        }

        /// `lines` as `data:` events; a comment when there are none.
        static func lines(_ lines: [String]) -> [UInt8] {
            guard !lines.isEmpty else { return Array(": still here\n\n".utf8) }
            return Array(lines.map { "data: \($0)\n\n" }.joined().utf8)
        }

        static func json(_ event: Event) -> String {
            guard !event.reload else { return "{\"reload\":true}" }
            let albums = event.albums.map(LibraryWebHandler.jsonString).joined(separator: ",")
            return "{\"albums\":[\(albums)],\"assets\":\(event.assets)}"
        }
    }
}
