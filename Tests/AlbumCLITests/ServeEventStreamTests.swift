#if os(Linux)
    import AlbumKit
    import AlbumKitMedia
    import AlbumServer
    import AlbumTestSupport
    import Foundation
    import Glibc
    import Testing

    /// `album serve`'s event streams let go of their connection as soon as the page closes them. A
    /// closed stream held until its next keep-alive comment (up to 15 s) failed to be written would
    /// keep its server thread and one of the connections allowed per address, so a page that came
    /// and went a few times would lock its own address out.
    @Suite("album serve's event streams", .serialized)
    struct ServeEventStreamTests {
        static let token = String(repeating: "5a", count: 32)

        struct SocketFailure: Error {
            let call: String
            let errno: Int32
        }

        /// A connection to `port` on loopback, its reads giving up after 10 s.
        static func connect(_ port: Int) throws -> Int32 {
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard socket >= 0 else { throw SocketFailure(call: "socket", errno: errno) }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else { throw SocketFailure(call: "connect", errno: errno) }
            return socket
        }

        /// Sends a GET of `path` with the owner's cookie on `socket` and reads the answer's head: its
        /// status, or `nil` when the server closed the connection without one (refused).
        static func get(_ path: String, on socket: Int32) -> Int? {
            let request = Array(
                "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: albumkit_owner=\(token)\r\n\r\n".utf8)
            guard
                request.withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) })
                    == request.count
            else { return nil }
            var head: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !String(decoding: head, as: UTF8.self).contains("\r\n\r\n") {
                let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return nil }
                head += buffer.prefix(count)
            }
            let line = String(decoding: head, as: UTF8.self).split(separator: "\r\n").first ?? ""
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        }

        /// A server over an empty in-memory library with `limits`, given to `body` with its handler;
        /// stopped, its upload folder removed, when `body` returns.
        static func withServer(
            limits: HTTPServer.Limits, _ body: (_ server: HTTPServer, _ handler: LibraryWebHandler) async throws -> Void
        ) async throws {
            try ServeCLITests.requireMicroHTTPD()
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }  // a temporary folder: left behind at worst
            let handler = LibraryWebHandler(
                library: PhotoLibrary.inMemory(), token: OwnerToken(value: token),
                uploads: try UploadStore(folder: folder.path), settings: .init())
            let server = try HTTPServer(
                listening: try HTTPListenAddress(parsing: "127.0.0.1:0"), limits: limits, handler: handler)
            defer { server.stop() }
            try await body(server, handler)
        }

        @Test func closedStreamsLetGoOfTheirConnectionsAtOnce() async throws {
            var limits = HTTPServer.Limits()
            limits.connectionsPerAddress = 4
            try await Self.withServer(limits: limits) { server, handler in
                let port = server.port
                for round in 0..<4 {
                    // As many streams as the address may hold, each closed by its page.
                    let opened = try await OwnThread.run {
                        var statuses: [Int?] = []
                        var sockets: [Int32] = []
                        for _ in 0..<4 {
                            let socket = try Self.connect(port)
                            sockets.append(socket)
                            statuses.append(Self.get("/api/events", on: socket))
                        }
                        for socket in sockets { close(socket) }
                        return statuses
                    }
                    #expect(opened == [200, 200, 200, 200], "round \(round): the streams open")
                    // The server lets go of them: no page left listening, and every connection ended by
                    // libmicrohttpd, which frees its place among those the address may hold (a listener
                    // goes as its connection closes, the place only once the connection's thread has
                    // ended: the next round's streams were refused when they came in between).
                    let closed = await Self.letGo(of: server, listeners: handler.live)
                    #expect(closed.connections == 0, "round \(round): \(closed.connections) connections held")
                    #expect(closed.listening == 0, "round \(round): \(closed.listening) still listening")
                    // A normal request answers at once, and its connection goes too.
                    let answered = try await OwnThread.run {
                        let socket = try Self.connect(port)
                        defer { close(socket) }
                        return Self.get("/api/albums", on: socket)
                    }
                    #expect(answered == 200, "round \(round): the albums")
                    #expect(await Self.letGo(of: server, listeners: handler.live).connections == 0, "round \(round)")
                }
            }
        }

        /// The connections `server` still holds and the pages still listening to `listeners`, once
        /// both are none or after 10 s. A closed stream is noticed within a quarter of a second;
        /// one that is not is held until a keep-alive comment fails to be written, 15 s or more
        /// later, so 10 s tells the two apart on a machine however busy.
        static func letGo(of server: HTTPServer, listeners: LiveChanges) async -> (connections: Int, listening: Int) {
            let clock = ContinuousClock()
            let end = clock.now.advanced(by: .seconds(10))
            while server.connections > 0 || listeners.listening > 0, clock.now < end {
                try? await Task.sleep(for: .milliseconds(20))
            }
            return (server.connections, listeners.listening)
        }
    }
#endif
