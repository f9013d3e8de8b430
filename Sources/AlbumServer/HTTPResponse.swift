/// What the server sends back: a status, headers, and a body held whole or read as it is sent.
///
/// ```swift
/// let page = HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", text: "<p>Hello</p>")
/// let video = HTTPResponse(status: 206, size: 1 << 20) { offset, count in try read(offset, count) }
/// ```
package struct HTTPResponse: Sendable {
    /// Where the bytes come from.
    package enum Body: Sendable {
        /// Bytes held whole (pages, JSON, thumbnails).
        case bytes([UInt8])
        /// `size` bytes given by `read(offset, count)` as they are sent (`UInt64.max`: as many as
        /// it gives, sent in chunks); an empty answer before `size` bytes is an error that cuts the
        /// response.
        case stream(size: UInt64, read: @Sendable (_ offset: UInt64, _ count: Int) throws -> [UInt8])
        /// A stream with no end (server-sent events): `next(connected)` waits for the next bytes and
        /// gives them, or nothing to end the response. While it waits it asks `connected()` now and
        /// then whether the client is still there, and gives up once it is not: a page that went away
        /// frees its connection at once, not at the next write that fails.
        case events(next: @Sendable (_ connected: @Sendable () -> Bool) -> [UInt8])
    }

    package var status: Int
    package var headers: [(name: String, value: String)]
    package var body: Body

    package init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with `text` as its body.
    package init(status: Int, contentType: String, text: String, headers: [(name: String, value: String)] = []) {
        self.init(status: status, headers: [("Content-Type", contentType)] + headers, body: .bytes(Array(text.utf8)))
    }

    /// A streamed response of `size` bytes.
    package init(
        status: Int, size: UInt64, headers: [(name: String, value: String)] = [],
        read: @escaping @Sendable (_ offset: UInt64, _ count: Int) throws -> [UInt8]
    ) {
        self.init(status: status, headers: headers, body: .stream(size: size, read: read))
    }

    /// An endless stream of events (``Body/events(next:)``).
    package init(
        status: Int, headers: [(name: String, value: String)] = [],
        events next: @escaping @Sendable (_ connected: @Sendable () -> Bool) -> [UInt8]
    ) {
        self.init(status: status, headers: headers, body: .events(next: next))
    }

    /// Adds a header.
    package func adding(_ name: String, _ value: String) -> HTTPResponse {
        var copy = self
        copy.headers.append((name, value))
        return copy
    }

    /// The value of header `name` (any case), the first one.
    package func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}
