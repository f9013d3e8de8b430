/// One HTTP request as the server received it: its line, headers, cookies and query, never its body
/// (a body is streamed to an ``HTTPBodyReceiver``).
///
/// ```swift
/// if request.method == "GET", request.path == "/api/albums" { … }
/// let token = request.cookies["albumkit_owner"]
/// ```
package struct HTTPRequest: Sendable {
    /// `GET`, `POST`, … as sent.
    package var method: String
    /// The path, percent-decoded, without the query.
    package var path: String
    /// `HTTP/1.1`.
    package var version: String
    /// The headers, names in lowercase (a repeated header: the last one).
    package var headers: [String: String]
    /// The query's arguments, decoded.
    package var query: [String: String]
    /// The cookies sent.
    package var cookies: [String: String]

    package init(
        method: String, path: String, version: String = "HTTP/1.1", headers: [String: String] = [:],
        query: [String: String] = [:], cookies: [String: String] = [:]
    ) {
        self.method = method
        self.path = path
        self.version = version
        self.headers = headers
        self.query = query
        self.cookies = cookies
    }

    /// The header `name` (any case).
    ///
    /// ```swift
    /// let origin = request.header("Origin")
    /// ```
    package func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The path's segments: `/api/albums/7` → `["api", "albums", "7"]`.
    package var segments: [Substring] { path.split(separator: "/", omittingEmptySubsequences: true) }
}
