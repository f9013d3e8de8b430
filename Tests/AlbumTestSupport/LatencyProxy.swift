import Foundation

#if canImport(Glibc)
    import Glibc

    private let streamSocket = Int32(SOCK_STREAM.rawValue)
#elseif canImport(Darwin)
    import Darwin

    private let streamSocket = SOCK_STREAM
#endif

/// A TCP relay on loopback that delays every byte by `oneWay` in each direction, so that a server
/// on this machine answers as if it were a network's round trip away (this kernel has no netem).
/// Bandwidth is not limited: only latency. It also counts round trips: each time a client sends
/// again after its server answered (or first sends) on a connection, one turn; each time the
/// server answers such a turn, one wait (a turn never answered, as a goodbye, is no wait). The
/// TCP handshake is delayed as a round trip but counted as neither.
///
/// `album-bench` measures through it; the tests count round trips with it (`oneWay: 0`).
///
/// ```swift
/// let proxy = try LatencyProxy(target: 5432, oneWay: 0.010)  // 20 ms round trips
/// // connect to 127.0.0.1:\(proxy.port) instead of 5432
/// ```
public final class LatencyProxy: @unchecked Sendable {
    // @unchecked: `listener` and the constants are set once in init; every mutable count is behind `lock`.
    public let port: Int
    private let listener: Int32
    public let target: Int
    private let delay: Double
    private let lock = NSLock()
    private var turns = 0
    private var waits = 0
    private var connections = 0

    /// Why the relay could not start.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// A relay to `127.0.0.1:target`, listening on a free loopback port (``port``).
    public init(target: Int, oneWay: Double) throws {
        self.target = target
        self.delay = oneWay
        let listener = socket(AF_INET, streamSocket, 0)
        self.listener = listener
        guard listener >= 0 else { throw Failure(description: "cannot make a socket for the latency proxy") }
        var one: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 128) == 0 else {
            throw Failure(description: "the latency proxy cannot listen")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Round trips (client turns, and those the server answered) and connections seen since the last call.
    public func takeCounts() -> (turns: Int, waits: Int, connections: Int) {
        lock.lock()
        defer { lock.unlock() }
        defer { (turns, waits, connections) = (0, 0, 0) }
        return (turns, waits, connections)
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if errno == EINTR { continue }
                return
            }
            let server = socket(AF_INET, streamSocket, 0)
            var address = Self.loopback(port: target)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else {
                close(client)
                close(server)
                continue
            }
            var one: Int32 = 1
            for descriptor in [client, server] {
                setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            }
            lock.lock()
            connections += 1
            lock.unlock()
            let side = Side()
            let finish: @Sendable () -> Void = {
                side.lock.lock()
                side.finished += 1
                let last = side.finished == 2
                side.lock.unlock()
                if last {
                    close(client)
                    close(server)
                }
            }
            relay(from: client, to: server, side: side, isClient: true, then: finish)
            relay(from: server, to: client, side: side, isClient: false, then: finish)
        }
    }

    /// Who sent last on a connection, to count the client's turns.
    private final class Side: @unchecked Sendable {
        // @unchecked: `serverSpoke` and `finished` are only read and written under `lock`.
        let lock = NSLock()
        var serverSpoke = true
        var finished = 0
    }

    /// Copies `source` to `destination`, each chunk delivered `delay` after it was read: a reader
    /// thread queues, a writer thread waits for each chunk's time.
    private func relay(
        from source: Int32, to destination: Int32, side: Side, isClient: Bool, then: @escaping @Sendable () -> Void
    ) {
        let queue = DelayQueue()
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 256 << 10)
            // The kernel completed the client's TCP handshake with the relay at once; over a network
            // it costs a round trip before the first byte can go: the client's first bytes wait for it.
            var handshake = isClient ? 2 * delay : 0
            while true {
                let count = read(source, &buffer, buffer.count)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else {
                    queue.push(Self.now() + delay, nil)
                    return
                }
                side.lock.lock()
                if isClient == side.serverSpoke {
                    lock.lock()
                    if isClient { turns += 1 } else { waits += 1 }
                    lock.unlock()
                }
                side.serverSpoke = !isClient
                side.lock.unlock()
                queue.push(Self.now() + delay + handshake, Array(buffer[0..<count]))
                handshake = 0
            }
        }
        Thread.detachNewThread {
            while true {
                let (due, chunk) = queue.pop()
                let wait = due - Self.now()
                if wait > 0 { usleep(useconds_t(wait * 1_000_000)) }
                guard let chunk else {
                    shutdown(destination, Int32(SHUT_WR))
                    then()
                    return
                }
                var sent = 0
                while sent < chunk.count {
                    let written = chunk[sent...].withUnsafeBytes { write(destination, $0.baseAddress, $0.count) }
                    if written < 0, errno == EINTR { continue }
                    guard written > 0 else {
                        shutdown(source, Int32(SHUT_RD))
                        then()
                        return
                    }
                    sent += written
                }
            }
        }
    }

    /// Seconds on the monotonic clock.
    private static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// Chunks with the time they are due, first in first out.
    private final class DelayQueue: @unchecked Sendable {
        // @unchecked: `items` is only touched under `condition`.
        private let condition = NSCondition()
        private var items: [(Double, [UInt8]?)] = []
        private var head = 0

        func push(_ due: Double, _ chunk: [UInt8]?) {
            condition.lock()
            items.append((due, chunk))
            condition.signal()
            condition.unlock()
        }

        func pop() -> (Double, [UInt8]?) {
            condition.lock()
            defer { condition.unlock() }
            while head == items.count { condition.wait() }
            let item = items[head]
            head += 1
            if head > 1024 {
                items.removeFirst(head)
                head = 0
            }
            return item
        }
    }
}
