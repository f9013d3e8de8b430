import AlbumKit
import AlbumKitCore
import AlbumKitMedia
import Foundation

/// The pages and the JSON API of `album serve` over one library: who may ask (the owner's token,
/// as a cookie once the printed link was opened), what a change must carry (the CSRF token and a
/// matching origin), and what each path answers. Assets are reached by their identifiers only: no
/// path of a request ever names a file.
///
/// ```swift
/// let handler = LibraryWebHandler(library: library, token: token, uploads: store, settings: .init())
/// let server = try HTTPServer(listening: address, handler: handler)
/// ```
package final class LibraryWebHandler: HTTPHandler {
    /// How the server behaves.
    package struct Settings: Sendable {
        /// Whether `X-Forwarded-Host` (the origin check of changes) and `X-Forwarded-Proto` (a `Secure`
        /// cookie behind HTTPS) from a reverse proxy in front are believed.
        package var trustsProxy = false
        /// Whether the library's albums are folders that nest (the folder library): the albums page shows a tree.
        package var nestsAlbums = false
        /// Whether the cookie is marked `Secure` (served over HTTPS).
        package var secureCookie = false
        /// The longest path and query accepted.
        package var longestTarget = 2048
        package init() {}
    }

    package static let cookieName = "albumkit_owner"
    package static let guestCookieName = "albumkit_guest"
    let library: PhotoLibrary
    let token: OwnerToken
    let uploads: UploadStore
    let settings: Settings
    let members = AlbumMembers()
    /// A lock for each share link whose PIN a guest gave: its PINs are checked one at a time.
    let pinChecks = Locked<[String: Locked<Void>]>([:])
    /// The library's change feed, one for every page (started with the server).
    package let live: LiveChanges

    package init(library: PhotoLibrary, token: OwnerToken, uploads: UploadStore, settings: Settings) {
        self.library = library
        self.token = token
        self.uploads = uploads
        self.settings = settings
        live = LiveChanges(library: library)
    }

    package func begin(_ request: HTTPRequest) -> HTTPExchange {
        if let refusal = malformed(request) { return .respond(refusal) }
        // A share link's own address (`/s/TOKEN`): opens its album for a guest (GuestAccess.swift).
        if request.segments.first == "s" { return shareLinkEntry(request) }
        // The style sheet holds nothing of the library: the pages shown before any token (sign-in,
        // a closed share link, the PIN form) use it too.
        if request.path == "/app.css", ["GET", "HEAD"].contains(request.method) {
            return .respond(Self.asset("app.css"))
        }
        let visitor: Visitor
        switch self.visitor(of: request) {
        case .success(let found): visitor = found
        case .failure(let refusal): return .respond(refusal.response)
        }
        if let refusal = refusal(of: request, csrf: visitor.csrf(owner: token)) { return .respond(refusal) }
        do {
            switch visitor {
            case .owner: return try route(request)
            case .guest(let link, let token): return try guestRoute(request, link: link, token: token)
            }
        } catch {
            return .respond(Self.failure(error))
        }
    }

    // MARK: - Who may ask

    /// The answer to a request no visitor may make: an address the server never makes, a method it
    /// does not answer. `nil` when it may go on.
    func malformed(_ request: HTTPRequest) -> HTTPResponse? {
        let path = request.path
        if path.utf8.count > settings.longestTarget || !path.hasPrefix("/") || path.contains("\0")
            || path.contains("\\") || request.segments.contains(where: { $0 == ".." || $0 == "." })
            || path.contains("%")
        {
            return Self.problem(400, "This address is not one the album server makes.")
        }
        guard ["GET", "HEAD", "POST", "PATCH", "DELETE"].contains(request.method) else {
            return Self.problem(405, "\(request.method) is not a method the album server answers.")
                .adding("Allow", "GET, HEAD, POST, PATCH, DELETE")
        }
        return nil
    }

    /// Who asks: the owner (the printed link's token, as the cookie or a bearer token), or a guest
    /// of a share link that still opens (its cookie); otherwise the answer refusing them.
    func visitor(of request: HTTPRequest) -> Result<Visitor, Visitor.Refusal> {
        // The printed link: its token becomes the owner cookie and the address loses it.
        if request.path == "/", request.method == "GET", let given = request.query["token"] {
            guard token.matches(given) else {
                return .failure(.init(response: Self.problem(403, "This link's access token is not this server's.")))
            }
            return .failure(
                .init(
                    response: HTTPResponse(
                        status: 303,
                        headers: [
                            ("Location", "/"), ("Set-Cookie", cookie(for: request)), ("Cache-Control", "no-store"),
                        ])))
        }
        let bearer = request.header("Authorization").flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        if token.matches(request.cookies[Self.cookieName]) || token.matches(bearer) { return .success(.owner) }
        if let guest = request.cookies[Self.guestCookieName] { return guestVisitor(guest, request) }
        if request.path == "/" {
            return .failure(
                .init(
                    response: HTTPResponse(
                        status: 401, contentType: "text/html; charset=utf-8", text: Pages.signIn,
                        headers: Self.pageHeaders)))
        }
        return .failure(
            .init(response: Self.problem(401, "Open the link `album serve` printed: it holds the access token.")))
    }

    /// The answer to a change without the visitor's CSRF token (`csrf`) and a matching origin; `nil`
    /// when it may go on.
    func refusal(of request: HTTPRequest, csrf: OwnerToken) -> HTTPResponse? {
        if ["POST", "PATCH", "DELETE"].contains(request.method) {
            guard csrf.matches(request.header("X-CSRF-Token")) else {
                return Self.problem(403, "A change needs the page's X-CSRF-Token header.")
            }
            if let refusal = foreignOrigin(request) { return refusal }
        }
        return nil
    }

    /// The answer to a request whose `Origin` is not this server (a page of another site); `nil`
    /// when it has none or this one.
    func foreignOrigin(_ request: HTTPRequest) -> HTTPResponse? {
        guard let origin = request.header("Origin") else { return nil }
        let host = (settings.trustsProxy ? request.header("X-Forwarded-Host") : nil) ?? request.header("Host") ?? ""
        guard let url = URL(string: origin), let originHost = url.host,
            originHost + (url.port.map { ":\($0)" } ?? "") == host || (url.port == nil && originHost == host)
        else {
            return Self.problem(403, "A change must come from a page of this server (Origin \(origin)).")
        }
        return nil
    }

    /// The owner cookie, `Secure` when served over HTTPS: this server's own, or a trusted proxy's
    /// (`X-Forwarded-Proto: https` with `--trust-proxy`).
    func cookie(for request: HTTPRequest) -> String {
        let secure =
            settings.secureCookie
            || (settings.trustsProxy && request.header("X-Forwarded-Proto")?.lowercased() == "https")
        return "\(Self.cookieName)=\(token.value); Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000"
            + (secure ? "; Secure" : "")
    }

    // MARK: - What each path answers

    func route(_ request: HTTPRequest) throws -> HTTPExchange {
        let parts = request.segments.map(String.init)
        let method = request.method == "HEAD" && parts.first != "api" ? "GET" : request.method
        switch (method, parts.count) {
        case ("GET", 0):
            return .respond(indexPage(csrf: token.csrf, guest: nil))
        case ("GET", 1) where ["app.js", "app.css"].contains(parts[0]):
            return .respond(Self.asset(parts[0]))
        default: break
        }
        guard parts.first == "api" else { return .respond(Self.problem(404, "There is no page here.")) }
        let api = Array(parts.dropFirst())
        switch (method, api.count, api.first) {
        case ("GET", 1, "albums"):
            return .respond(try albums())
        case ("GET", 1, "events"):
            let listener = live.listen()
            return .respond(
                HTTPResponse(
                    status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store")]
                ) { connected in listener.next(whileConnected: connected) })
        // Albums and assets are named by their identifiers in the query: a folder library's have slashes.
        case ("GET", 1, "album-assets"):
            return .respond(try albumAssets(request.query["album"] ?? "", request))
        case ("GET", 1, "cover"):
            return .respond(try cover(request.query["album"] ?? ""))
        case ("GET", 1, "thumbnail"):
            return .respond(try thumbnail(request.query["asset"] ?? "", ifNoneMatch: request.header("If-None-Match")))
        case ("GET", 1, "thumbnails"):
            return .respond(try thumbnails(request.query["album"] ?? "", request))
        case ("GET", 1, "preview"):
            return .respond(try preview(request.query["asset"] ?? ""))
        case ("GET", 1, "original"), ("HEAD", 1, "original"):
            return .respond(try original(request.query["asset"] ?? "", range: request.header("Range")))
        case ("POST", 1, "uploads"):
            return try createUpload(request)
        case ("HEAD", 2, "uploads"):
            return .respond(uploadOffset(api[1]))
        case ("PATCH", 2, "uploads"):
            return appendUpload(api[1], request)
        case ("DELETE", 2, "uploads"):
            uploads.remove(api[1])
            return .respond(HTTPResponse(status: 204))
        default:
            return .respond(Self.problem(404, "There is nothing at \(request.method) \(request.path)."))
        }
    }

    /// The page every address of the app starts from: the CSRF token of the visitor, whether albums
    /// nest, and for a guest the one album its link shows (and whether they may add to it).
    func indexPage(csrf: String, guest: ShareLink?) -> HTTPResponse {
        let shown =
            guest.map {
                Self.htmlEscaped(
                    "{\"album\":\(Self.jsonString($0.albumID)),\"add\":\($0.rights == .viewAndAdd ? "true" : "false")}")
            } ?? ""
        let page = Pages.index.replacingOccurrences(of: "{{csrf}}", with: csrf)
            .replacingOccurrences(of: "{{nested}}", with: settings.nestsAlbums ? "true" : "false")
            .replacingOccurrences(of: "{{guest}}", with: shown)
        return HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", text: page, headers: Self.pageHeaders)
    }

    /// The script or the style sheet.
    static func asset(_ name: String) -> HTTPResponse {
        name == "app.js"
            ? HTTPResponse(
                status: 200, contentType: "text/javascript; charset=utf-8", text: Pages.script, headers: pageHeaders)
            : HTTPResponse(status: 200, contentType: "text/css; charset=utf-8", text: Pages.style, headers: pageHeaders)
    }

    /// `text` as a JSON string literal.
    static func jsonString(_ text: String) -> String {
        // An array of one string always encodes.
        let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }

    /// `text` safe inside an HTML attribute or element.
    static func htmlEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }

    func albums() throws -> HTTPResponse {
        let library = self.library
        let (albums, summaries) = try Waiting.result {
            let albums = try await library.albums()
            // Date ranges where the library has them; a kind without summaries lists its albums without.
            let summaries = (try? await library.albumSummaries()) ?? []
            return (albums, summaries)
        }
        let ranges = Dictionary(summaries.map { ($0.albumID, $0) }, uniquingKeysWith: { first, _ in first })
        let list: [[String: Any]] = albums.map { album in
            var entry: [String: Any] = ["id": album.id, "title": album.title, "count": album.count]
            if let summary = ranges[album.id] {
                entry["first"] = summary.firstTaken ?? NSNull()
                entry["last"] = summary.lastTaken ?? NSNull()
            }
            return entry
        }
        return Self.json(["albums": list])
    }

    func albumInfo(_ id: String) throws -> AlbumInfo {
        guard Self.isIdentifier(id) else { throw AlbumError(.albumNotFound, "There is no album \(id).") }
        let library = self.library
        return try Waiting.result { try await library.albumInfo(withID: id) }
    }

    func albumAssets(_ id: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let album = try albumInfo(id)
        let offset = max(0, Int(request.query["offset"] ?? "0") ?? 0)
        let limit = min(500, max(1, Int(request.query["limit"] ?? "100") ?? 100))
        let library = self.library
        let taken = request.query["order"] == "taken"
        let slice = try Waiting.result {
            try await AlbumPositions.assets(
                of: library, album: album.id, order: taken ? .captureDate : .dateAdded, from: offset, limit: limit)
        }
        // Keys in no particular order: sorting them took a third of a page's time.
        return Self.json(
            [
                "album": ["id": album.id, "title": album.title, "count": slice.albumCount],
                "offset": offset, "order": taken ? "taken" : "added", "assets": slice.assets.map(Self.describe),
            ], sortedKeys: false)
    }

    static func describe(_ asset: AssetInfo) -> [String: Any] {
        var entry: [String: Any] = [
            "id": asset.id, "kind": asset.kind == .video ? "video" : "photo",
            "name": asset.originalFilename ?? NSNull(), "width": asset.pixelWidth ?? NSNull(),
            "height": asset.pixelHeight ?? NSNull(), "size": asset.byteSize ?? NSNull(),
            "added": asset.dateAdded.map(Self.isoDate) ?? NSNull(),
            "taken": asset.capturedAt.map(Self.isoDate) ?? NSNull(),
            "duration": asset.duration ?? NSNull(),
            "camera": asset.metadata?.camera ?? NSNull(),
            "format": asset.metadata?.format.rawValue ?? NSNull(),
        ]
        if let location = asset.location {
            entry["place"] = String(format: "%.5f, %.5f", location.latitude, location.longitude)
        }
        return entry
    }

    func cover(_ id: String) throws -> HTTPResponse {
        guard Self.isIdentifier(id) else { return Self.problem(404, "There is no album \(id).") }
        let library = self.library
        let first = try Waiting.result {
            try await library.assets(inAlbumWithID: id, after: nil, limit: 1).assets.first
        }
        guard let first else { return Self.placeholder }
        return try thumbnail(first.id)
    }

    /// The photo page's picture: the library's preview, about 2048 pixels on its longer side (a
    /// catalog keeps it, the others make it). Where none can be made (no libvips, a format it does
    /// not decode) the original, through its own address.
    func preview(_ id: String) throws -> HTTPResponse {
        guard Self.isIdentifier(id) else { return Self.problem(404, "There is no asset \(id).") }
        let library = self.library
        let found: AssetThumbnail?
        do {
            found = try Waiting.result { try await library.preview(forAssetWithID: id, maxPixelSize: 2048) }
        } catch let error as AlbumError where error.code == .notSupported || error.code == .corruptMedia {
            found = nil
        }
        guard let found else {
            var encoded = URLComponents()
            encoded.queryItems = [URLQueryItem(name: "asset", value: id)]
            let query = (encoded.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
            return HTTPResponse(
                status: 307, headers: [("Location", "/api/original?" + query), ("Cache-Control", "no-store")])
        }
        return HTTPResponse(
            status: 200,
            headers: [("Content-Type", Self.mimeType(found.format)), ("Cache-Control", "private, max-age=86400")],
            body: .bytes(Array(found.data)))
    }

    func original(_ id: String, range: String?) throws -> HTTPResponse {
        guard Self.isIdentifier(id) else { return Self.problem(404, "There is no asset \(id).") }
        let library = self.library
        let reading = try Waiting.result {
            try await library.capability((any OriginalReading).self, for: "give its originals")
        }
        let found = try Waiting.result {
            try await reading.readOriginal(ofAssetWithID: id) { source -> (UInt64, MediaFormat?) in
                // The type is only for the browser: a file AlbumKit cannot name is sent as bytes.
                (source.size, try? MediaInspector().inspect(source).format)
            }
        }
        guard let (size, format) = found else {
            return Self.problem(404, "This library cannot give that asset's original.")
        }
        var first: UInt64 = 0
        var last = size == 0 ? 0 : size - 1
        var status = 200
        if let range, size > 0 {
            switch Self.byteRange(range, size: size) {
            case .whole: break
            case .unsatisfiable: return HTTPResponse(status: 416, headers: [("Content-Range", "bytes */\(size)")])
            case .bytes(let start, let end): (first, last, status) = (start, end, 206)
            }
        }
        var headers: [(name: String, value: String)] = [
            ("Content-Type", format.map(Self.mimeType) ?? "application/octet-stream"), ("Accept-Ranges", "bytes"),
            ("Cache-Control", "private, max-age=86400"), ("X-Content-Type-Options", "nosniff"),
            ("Content-Security-Policy", "sandbox; default-src 'none'"),
        ]
        if status == 206 { headers.append(("Content-Range", "bytes \(first)-\(last)/\(size)")) }
        let length = size == 0 ? 0 : last - first + 1
        let start = first
        return HTTPResponse(status: status, size: length, headers: headers) { offset, count in
            try Waiting.result {
                let bytes = try await reading.readOriginal(ofAssetWithID: id) { source in
                    try source.read(at: start + offset, count: count)
                }
                return bytes ?? []
            }
        }
    }

    /// What a `Range` header asks of a file.
    enum ByteRange: Equatable {
        /// The whole file, `200`: a header in another unit, malformed, or of several ranges (a
        /// server may ignore those; serving the first alone would answer a part of the question).
        case whole
        /// The bytes from the first to the last, both included: `206`.
        case bytes(UInt64, UInt64)
        /// A range that starts past the end: `416`.
        case unsatisfiable
    }

    /// The range a `Range: bytes=…` header asks for within `size` bytes (more than 0).
    ///
    /// ```swift
    /// LibraryWebHandler.byteRange("bytes=-10", size: 100)   // .bytes(90, 99)
    /// ```
    static func byteRange(_ header: String, size: UInt64) -> ByteRange {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return .whole }
        let bounds = header.dropFirst(6).trimmingCharacters(in: .whitespaces)
            .split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, bounds.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }) else {
            return .whole
        }
        if bounds[0].isEmpty {
            guard let suffix = UInt64(bounds[1]) else { return .whole }  // none, or past 64 bits: all of it
            return suffix == 0 ? .unsatisfiable : .bytes(size - min(suffix, size), size - 1)
        }
        // All digits and too large for 64 bits: past the end of any file.
        guard let start = UInt64(bounds[0]), start < size else { return .unsatisfiable }
        guard !bounds[1].isEmpty else { return .bytes(start, size - 1) }
        guard let end = UInt64(bounds[1]) else { return .bytes(start, size - 1) }  // too large: to the end
        return end >= start ? .bytes(start, min(end, size - 1)) : .whole
    }

    // MARK: - Answers

    static let pageHeaders: [(name: String, value: String)] = [
        (
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; media-src 'self'; style-src 'self'; script-src 'self'; frame-ancestors 'none'"
        ),
        ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"), ("Cache-Control", "no-store"),
    ]

    /// `2024-05-01T10:20:30Z`, as `ISO8601DateFormatter` writes it; without making one per date
    /// (making one took 40 % of the time of a page of the grid) from 1970 to 9999.
    static func isoDate(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds >= 0, seconds < 253_402_300_800,
            let text = ISODate.string(unixSeconds: Int64(seconds))
        else { return ISO8601DateFormatter().string(from: date) }
        return text
    }

    static func json(_ value: Any, status: Int = 200, sortedKeys: Bool = true) -> HTTPResponse {
        let options: JSONSerialization.WritingOptions = sortedKeys ? [.sortedKeys] : []
        // Every value put in is a string, number, null, array or dictionary of those.
        let data = (try? JSONSerialization.data(withJSONObject: value, options: options)) ?? Data("{}".utf8)
        return HTTPResponse(
            status: status, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
            body: .bytes(Array(data)))
    }

    static func problem(_ status: Int, _ message: String) -> HTTPResponse {
        json(["error": message], status: status)
    }

    /// An error from the library as an answer: the asset or album missing is 404, the rest 500.
    static func failure(_ error: any Error) -> HTTPResponse {
        guard let error = error as? AlbumError else { return problem(500, "\(error)") }
        switch error.code {
        case .assetNotFound, .albumNotFound, .fileNotFound: return problem(404, error.message)
        case .invalidArgument, .invalidAlbumTitle: return problem(400, error.message)
        case .notSupported: return problem(501, error.message)
        default: return problem(500, error.message)
        }
    }

    /// Whether `id` can be an identifier a library gave (a folder library's hold its album folder and
    /// file name: `3f2c…/IMG_0001.JPG`): at most 1024 bytes, no control character or backslash, and
    /// no empty, `.` or `..` part between slashes. The library resolves it; this only keeps out what
    /// no library makes.
    static func isIdentifier(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 1024
            && !id.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0 == "\\" }
            && !id.split(separator: "/", omittingEmptySubsequences: false).contains {
                $0.isEmpty || $0 == "." || $0 == ".."
            }
    }

    /// The neutral image shown where a library has no thumbnail to give.
    static let placeholder = HTTPResponse(
        status: 200, contentType: "image/svg+xml",
        text:
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 4 3\"><rect width=\"4\" height=\"3\" fill=\"#d8d8d8\"/></svg>",
        headers: [("Cache-Control", "private, max-age=60")])

    static func mimeType(_ format: MediaFormat) -> String {
        switch format {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .gif: "image/gif"
        case .webp: "image/webp"
        case .heic: "image/heic"
        case .heif: "image/heif"
        case .avif: "image/avif"
        case .tiff, .dng: "image/tiff"
        case .bmp: "image/bmp"
        case .raw: "application/octet-stream"
        case .mp4, .m4v: "video/mp4"
        case .mov: "video/quicktime"
        case .threeGP: "video/3gpp"
        case .webm: "video/webm"
        case .mkv: "video/x-matroska"
        case .avi: "video/x-msvideo"
        case .mpegTS, .m2ts: "video/mp2t"
        }
    }
}
