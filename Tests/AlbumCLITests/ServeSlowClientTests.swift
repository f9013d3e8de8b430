#if os(Linux)
    import AlbumKit
    import AlbumKitMedia
    import AlbumServer
    import AlbumTestSupport
    import Foundation
    import Glibc
    import Testing

    /// `album serve` against clients that send a request's headers a byte at a time (slowloris):
    /// libmicrohttpd's idle timeout counts from the last byte, so such clients, without any token,
    /// held their connections for ever — all those allowed to their address, and from two
    /// addresses all the server's. A connection waiting for a request now goes after
    /// ``HTTPServer/Limits/requestWaitSeconds`` however its bytes come; a request being answered
    /// keeps its connection as long as it takes.
    @Suite("album serve against slow clients", .serialized)
    struct ServeSlowClientTests {
        /// A server over an empty library allowing 4 connections per address and 2 s of waiting.
        static func withServer(_ body: (_ server: HTTPServer) async throws -> Void) async throws {
            var limits = HTTPServer.Limits()
            limits.connectionsPerAddress = 4
            limits.requestWaitSeconds = 2
            try await ServeEventStreamTests.withServer(limits: limits) { server, _ in try await body(server) }
        }

        @Test func headersSentAByteAtATimeDoNotHoldTheServer() async throws {
            try await Self.withServer { server in
                let port = server.port
                // As many connections as the address may hold, each sending its headers a byte every
                // 100 ms until the test has its answer (two minutes at most): never idle for
                // libmicrohttpd. The sending goes on after the server cut them, so that whenever
                // the other client below is answered (a loaded machine may run it late), they are
                // still trying.
                let slow = try (0..<4).map { _ in try ServeEventStreamTests.connect(port) }
                let trickling = Locked(true)
                let stop = Locked(false)
                let cut = Locked(0)
                let trickle = Thread {
                    let request = Array("GET /api/albums HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8)
                    let clock = ContinuousClock()
                    let end = clock.now.advanced(by: .seconds(120))
                    var sent = 0
                    var open = Set(slow)
                    while clock.now < end, !stop.withLock({ $0 }) {
                        for socket in open {
                            let byte = sent < request.count ? request[sent] : UInt8(ascii: "a")
                            if [byte].withUnsafeBytes({ send(socket, $0.baseAddress, 1, Int32(MSG_NOSIGNAL)) }) != 1 {
                                open.remove(socket)
                                cut.withLock { $0 += 1 }
                            }
                        }
                        sent += 1
                        usleep(100_000)
                    }
                    trickling.withLock { $0 = false }
                }
                trickle.start()
                defer { for socket in slow { close(socket) } }
                // Another client of the same address is answered while they still send (a minute
                // at most: held connections are never let go). It asks for the page's style sheet,
                // which reads nothing of the library: this server runs in the test process, whose
                // tasks a whole run keeps busy.
                let answered = try await OwnThread.run { () -> Int? in
                    let clock = ContinuousClock()
                    let end = clock.now.advanced(by: .seconds(60))
                    while clock.now < end {
                        let socket = try ServeEventStreamTests.connect(port)
                        defer { close(socket) }
                        if let status = ServeEventStreamTests.get("/app.css", on: socket) { return status }
                        usleep(200_000)
                    }
                    return nil
                }
                #expect(answered == 200, "a request of the same address while 4 clients sent their headers slowly")
                #expect(trickling.withLock { $0 }, "answered only once the slow clients had stopped")
                // Every slow client is cut (2 s after it opened), however long its sending goes on.
                let clock = ContinuousClock()
                let end = clock.now.advanced(by: .seconds(30))
                while cut.withLock({ $0 }) < 4, clock.now < end { try await Task.sleep(for: .milliseconds(100)) }
                stop.withLock { $0 = true }
                #expect(cut.withLock { $0 } == 4, "the slow clients' connections were shut down")
                while trickling.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(100)) }
            }
        }

        @Test func aRequestBeingAnsweredKeepsItsConnection() async throws {
            try await Self.withServer { server in
                let port = server.port
                let socket = try ServeEventStreamTests.connect(port)
                defer { close(socket) }
                #expect(ServeEventStreamTests.get("/api/events", on: socket) == 200)
                // Twice the wait allowed for a request: the stream, being answered, stays open.
                try await Task.sleep(for: .seconds(4))
                var buffer = [UInt8](repeating: 0, count: 4096)
                let read = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                #expect(
                    read > 0 || (read < 0 && errno == EAGAIN), "the event stream was closed (\(read), errno \(errno))")
            }
        }
    }
#endif
