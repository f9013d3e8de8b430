#if os(Linux)
    import AlbumKitCore
    import AlbumKitMedia
    import CMicroHTTPD
    import Foundation

    /// A small HTTP server on GNU libmicrohttpd (loaded at run time): one thread per connection, so
    /// a handler may block; request bodies are streamed to the handler, responses streamed out.
    ///
    /// ```swift
    /// let server = try HTTPServer(listening: try HTTPListenAddress(parsing: "127.0.0.1:0"), handler: app)
    /// print(server.port)
    /// server.stop()
    /// ```
    package final class HTTPServer {
        /// The limits every server has (connections, memory per connection, idle time).
        package struct Limits: Sendable {
            package var connections: UInt32 = 64
            package var connectionsPerAddress: UInt32 = 32
            package var idleSeconds: UInt32 = 120
            /// How long a connection may wait for a request's headers, from its opening or its last
            /// answer, however slowly they come (a client sending a byte now and then is not idle).
            package var requestWaitSeconds: UInt32 = 30
            /// libmicrohttpd's buffer per connection: the request line and headers must fit in it
            /// (larger headers get 431), and so does each piece of body handed over.
            package var connectionMemory = 64 * 1024
            package init() {}
        }

        private let daemon: OpaquePointer
        private let core: Unmanaged<Core>
        private let handlers: UnsafeMutablePointer<albumkit_mhd_handlers>
        /// The port it listens on (the one chosen when the address asked for port 0).
        package let port: Int

        /// Whether libmicrohttpd can be loaded; the reason (with the package to install) when not.
        package static func unavailableReason() -> String? {
            albumkit_mhd_load() == 0 ? nil : String(cString: albumkit_mhd_load_error())
        }

        /// Starts listening on `address`; `tls` is a PEM key and certificate.
        ///
        /// - Throws: `AlbumError(.notSupported)` when libmicrohttpd is missing (naming the package),
        ///   `.invalidArgument` when the address cannot be listened on.
        package init(
            listening address: HTTPListenAddress, limits: Limits = Limits(),
            tls: (key: String, certificate: String)? = nil,
            handler: any HTTPHandler
        ) throws {
            if let reason = Self.unavailableReason() {
                throw AlbumError(.notSupported, "album serve needs GNU libmicrohttpd: \(reason).")
            }
            let core = Unmanaged.passRetained(Core(handler: handler))
            let handlers = UnsafeMutablePointer<albumkit_mhd_handlers>.allocate(capacity: 1)
            handlers.initialize(
                to: albumkit_mhd_handlers(
                    context: core.toOpaque(), begin: serverBegin, refused: serverRefused, body: serverBody,
                    end: serverEnd, finished: serverFinished))
            let started: OpaquePointer? = address.withSocketAddress { socketAddress in
                let key = tls.map { strdup($0.key) } ?? nil
                let certificate = tls.map { strdup($0.certificate) } ?? nil
                defer {
                    free(key)
                    free(certificate)
                }
                var settings = albumkit_mhd_settings(
                    address: socketAddress, connectionLimit: limits.connections,
                    perAddressLimit: limits.connectionsPerAddress, timeoutSeconds: limits.idleSeconds,
                    requestWaitSeconds: limits.requestWaitSeconds, connectionMemoryLimit: limits.connectionMemory,
                    tlsKeyPEM: key, tlsCertificatePEM: certificate)
                return albumkit_mhd_start(&settings, handlers, address.isIPv6 ? 1 : 0)
            }
            guard let started else {
                handlers.deinitialize(count: 1)
                handlers.deallocate()
                core.release()
                throw AlbumError(
                    .invalidArgument,
                    "album serve cannot listen on \(address) (the port is taken, the address is not this machine's\(tls == nil ? "" : ", or the certificate and key are not a matching PEM pair"))."
                )
            }
            self.daemon = started
            self.core = core
            self.handlers = handlers
            self.port = Int(albumkit_mhd_port(started))
        }

        /// The connections the server holds: each is counted until its thread has ended and
        /// libmicrohttpd has let go of it, and with it of its place among those allowed per address.
        /// None once stopped.
        package var connections: Int {
            stopped.withLock { $0 ? 0 : Int(albumkit_mhd_connections(daemon)) }
        }

        /// Whether the daemon was stopped (it is stopped once: libmicrohttpd frees it then).
        private let stopped = Locked(false)

        /// Stops listening, ends every connection and waits for their threads; again does nothing.
        package func stop() {
            let first = stopped.withLock { stopped in
                defer { stopped = true }
                return !stopped
            }
            if first { albumkit_mhd_stop(daemon) }
        }

        deinit {
            stop()
            handlers.deinitialize(count: 1)
            handlers.deallocate()
            core.release()
        }

        /// The handler, reached from the C callbacks through their context pointer.
        final class Core: Sendable {
            let handler: any HTTPHandler
            init(handler: any HTTPHandler) { self.handler = handler }
        }

        /// One request between the access handler's calls; touched only by its connection's thread.
        final class Pending {
            let exchange: HTTPExchange
            var answered = false
            init(_ exchange: HTTPExchange) { self.exchange = exchange }
        }

        /// A streamed response's reader, kept alive by libmicrohttpd until it releases it.
        final class Stream {
            let size: UInt64
            let read: @Sendable (UInt64, Int) throws -> [UInt8]
            init(size: UInt64, read: @escaping @Sendable (UInt64, Int) throws -> [UInt8]) {
                self.size = size
                self.read = read
            }
        }

        /// Collects headers, cookies or query arguments.
        final class Values {
            var values: [String: String] = [:]
            let lowercased: Bool
            init(lowercased: Bool) { self.lowercased = lowercased }
        }

        static func values(_ connection: OpaquePointer, kind: Int32, lowercased: Bool) -> [String: String] {
            let box = Values(lowercased: lowercased)
            withExtendedLifetime(box) {
                albumkit_mhd_values(
                    connection, kind,
                    { context, key, value in
                        guard let context, let key else { return }
                        let box = Unmanaged<Values>.fromOpaque(context).takeUnretainedValue()
                        let name = String(cString: key)
                        box.values[box.lowercased ? name.lowercased() : name] = value.map { String(cString: $0) } ?? ""
                    }, Unmanaged.passUnretained(box).toOpaque())
            }
            return box.values
        }

        static func queue(_ response: HTTPResponse, on connection: OpaquePointer, method: String) -> Int32 {
            let made: OpaquePointer?
            switch response.body {
            case .bytes(let bytes):
                made = bytes.withUnsafeBytes { albumkit_mhd_response_copy($0.baseAddress, $0.count) }
            case .stream(let size, let read):
                made = stream(size: size, read: read)
            case .events(let next):
                // The socket is asked, without waiting, whether the client closed it: the thread and the
                // connection (one of those allowed per address) are let go within a moment.
                let socket = albumkit_mhd_connection_socket(connection)
                let connected: @Sendable () -> Bool = { albumkit_mhd_peer_closed(socket) == 0 }
                made = stream(size: UInt64.max) { _, _ in next(connected) }
            }
            guard let made else { return -1 }
            for header in response.headers {
                _ = albumkit_mhd_add_header(made, header.name, header.value)
            }
            return albumkit_mhd_queue(connection, UInt32(response.status), made)
        }

        /// A response whose `size` bytes `read` gives as they are sent; `nil` when libmicrohttpd cannot make one.
        static func stream(size: UInt64, read: @escaping @Sendable (UInt64, Int) throws -> [UInt8]) -> OpaquePointer? {
            let stream = Unmanaged.passRetained(Stream(size: size, read: read))
            let made = albumkit_mhd_response_stream(
                size, 256 * 1024,
                { context, position, buffer, max in
                    guard let context, let buffer else { return Int(ALBUMKIT_MHD_CONTENT_READER_END_WITH_ERROR) }
                    let stream = Unmanaged<Stream>.fromOpaque(context).takeUnretainedValue()
                    guard position < stream.size else { return Int(ALBUMKIT_MHD_CONTENT_READER_END_OF_STREAM) }
                    let count = Int(min(UInt64(max), stream.size - position))
                    // A source that fails or ends early cuts the response: the client sees a short
                    // body against its Content-Length, never made-up bytes.
                    guard let bytes = try? stream.read(position, count), !bytes.isEmpty, bytes.count <= count
                    else {
                        return Int(ALBUMKIT_MHD_CONTENT_READER_END_WITH_ERROR)
                    }
                    bytes.withUnsafeBytes {
                        UnsafeMutableRawPointer(buffer).copyMemory(from: $0.baseAddress!, byteCount: $0.count)
                    }
                    return bytes.count
                }, stream.toOpaque(),
                { context in
                    guard let context else { return }
                    Unmanaged<Stream>.fromOpaque(context).release()
                })
            if made == nil { stream.release() }
            return made
        }
    }

    private func serverBegin(
        _ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ method: UnsafePointer<CChar>?,
        _ url: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?
    ) -> UnsafeMutableRawPointer? {
        let core = Unmanaged<HTTPServer.Core>.fromOpaque(context!).takeUnretainedValue()
        var request = HTTPRequest(
            method: method.map { String(cString: $0) } ?? "", path: url.map { String(cString: $0) } ?? "",
            version: version.map { String(cString: $0) } ?? "")
        if let connection {
            request.headers = HTTPServer.values(connection, kind: Int32(ALBUMKIT_MHD_HEADER_KIND), lowercased: true)
            request.query = HTTPServer.values(
                connection, kind: Int32(ALBUMKIT_MHD_GET_ARGUMENT_KIND), lowercased: false)
            request.cookies = HTTPServer.values(connection, kind: Int32(ALBUMKIT_MHD_COOKIE_KIND), lowercased: false)
        }
        return Unmanaged.passRetained(HTTPServer.Pending(core.handler.begin(request))).toOpaque()
    }

    private func serverRefused(_ request: UnsafeMutableRawPointer?) -> Int32 {
        let pending = Unmanaged<HTTPServer.Pending>.fromOpaque(request!).takeUnretainedValue()
        if case .respond = pending.exchange { return 1 }
        return 0
    }

    private func serverBody(_ request: UnsafeMutableRawPointer?, _ data: UnsafePointer<CChar>?, _ size: Int) -> Int32 {
        let pending = Unmanaged<HTTPServer.Pending>.fromOpaque(request!).takeUnretainedValue()
        guard case .receive(let receiver) = pending.exchange, let data else { return 1 }
        return receiver.receive(UnsafeRawBufferPointer(start: data, count: size)) ? 0 : 1
    }

    private func serverEnd(_ request: UnsafeMutableRawPointer?, _ connection: OpaquePointer?) -> Int32 {
        let pending = Unmanaged<HTTPServer.Pending>.fromOpaque(request!).takeUnretainedValue()
        pending.answered = true
        let response: HTTPResponse
        switch pending.exchange {
        case .respond(let given): response = given
        case .receive(let receiver): response = receiver.finish()
        }
        return HTTPServer.queue(response, on: connection!, method: "")
    }

    private func serverFinished(_ request: UnsafeMutableRawPointer?, _ completed: Int32) {
        let pending = Unmanaged<HTTPServer.Pending>.fromOpaque(request!).takeRetainedValue()
        if !pending.answered, case .receive(let receiver) = pending.exchange { receiver.abandon() }
    }
#endif
