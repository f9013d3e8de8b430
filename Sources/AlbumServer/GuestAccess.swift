import AlbumKit
import AlbumKitCore
import AlbumKitMedia
import Foundation

/// A share link's guest: `/s/TOKEN` (and its PIN form) gives the guest cookie, every later request
/// is checked against the library's links (a revoked, expired or locked link stops at the next
/// request), and a guest reaches only the link's album: its listing, cover, and the thumbnails,
/// previews and originals of its own assets; uploads into it only with a link that adds.
extension LibraryWebHandler {
    // MARK: - /s/TOKEN

    /// `GET /s/TOKEN`: the guest cookie and the album (or the PIN form first); `POST /s/TOKEN`: the
    /// PIN form's answer.
    func shareLinkEntry(_ request: HTTPRequest) -> HTTPExchange {
        let parts = request.segments
        guard parts.count == 2, ShareLinkSecret.isToken(parts[1]) else {
            return .respond(Self.closedPage(404, Pages.linkUnknown))
        }
        let token = String(parts[1])
        let found: ShareLink?
        do { found = try link(forToken: token) } catch { return .respond(Self.failure(error)) }
        guard let link = found else { return .respond(Self.closedPage(404, Pages.linkUnknown)) }
        if let closed = closedAnswer(link, page: true) { return .respond(closed) }
        switch request.method {
        case "GET", "HEAD":
            guard link.requiresPIN else { return .respond(enter(link, token: token, proof: nil, request)) }
            return .respond(Self.pinPage(token: token, message: nil, status: 200))
        case "POST":
            guard link.requiresPIN else { return .respond(enter(link, token: token, proof: nil, request)) }
            if let refusal = foreignOrigin(request) { return .respond(refusal) }
            return .receive(PINForm(handler: self, link: link, token: token, request: request))
        default:
            return .respond(Self.problem(405, "A share link is opened (GET) or given its PIN (POST)."))
        }
    }

    /// The guest cookie (the token, and the PIN's proof when it has one) and the way to the album.
    func enter(_ link: ShareLink, token: String, proof: String?, _ request: HTTPRequest) -> HTTPResponse {
        let secure =
            settings.secureCookie
            || (settings.trustsProxy && request.header("X-Forwarded-Proto")?.lowercased() == "https")
        let lifetime = link.expiresAt.map { max(1, Int($0.timeIntervalSinceNow)) } ?? 30 * 86_400
        let value = token + (proof.map { "." + $0 } ?? "")
        let cookie =
            "\(Self.guestCookieName)=\(value); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(min(lifetime, 30 * 86_400))"
            + (secure ? "; Secure" : "")
        return HTTPResponse(
            status: 303, headers: [("Location", "/"), ("Set-Cookie", cookie), ("Cache-Control", "no-store")])
    }

    /// Checks a PIN given in the form; the guest enters, or the form again saying how many tries are left.
    ///
    /// One PIN of a link is checked at a time, against the link as the library has it then: guesses
    /// sent at once are checked one after another, so those after the last try allowed find the
    /// link locked and are not checked at all.
    func answerPIN(_ pin: String, link: ShareLink, token: String, request: HTTPRequest) -> HTTPResponse {
        let library = self.library
        let oneAtATime = pinChecks.withLock { checks in
            if let check = checks[link.id] { return check }
            let check = Locked(())
            checks[link.id] = check
            return check
        }
        return oneAtATime.withLock { _ in
            do {
                guard let now = try self.link(forToken: token) else { return Self.closedPage(404, Pages.linkUnknown) }
                if let closed = closedAnswer(now, page: true) { return closed }
                if try Waiting.result({ try await library.checkPIN(pin, of: now) }), let kept = now.pinHash {
                    return enter(
                        now, token: token, proof: ShareLinkSecret.pinProof(token: token, pinHash: kept), request)
                }
                guard let after = try self.link(forToken: token) else { return Self.closedPage(404, Pages.linkUnknown) }
                if let closed = closedAnswer(after, page: true) { return closed }
                let left = ShareLinkSecret.pinAttemptLimit - after.failedPINAttempts
                return Self.pinPage(
                    token: token, message: "That PIN is not this link's: \(left) \(left == 1 ? "try" : "tries") left.",
                    status: 403)
            } catch {
                return Self.failure(error)
            }
        }
    }

    // MARK: - Every later request

    /// The guest of the link a cookie names, when that link still opens; else the page or error
    /// saying why not (revoked, expired, locked, PIN missing).
    func guestVisitor(_ cookie: String, _ request: HTTPRequest) -> Result<Visitor, Visitor.Refusal> {
        let page = request.path == "/"
        let parts = cookie.split(separator: ".", maxSplits: 1).map(String.init)
        guard let token = parts.first, ShareLinkSecret.isToken(Substring(token)) else {
            return .failure(.init(response: Self.closed(404, Pages.linkUnknown, page: page)))
        }
        let found: ShareLink?
        do { found = try link(forToken: token) } catch { return .failure(.init(response: Self.failure(error))) }
        guard let link = found else {
            return .failure(.init(response: Self.closed(404, Pages.linkUnknown, page: page)))
        }
        if let closed = closedAnswer(link, page: page) { return .failure(.init(response: closed)) }
        if let kept = link.pinHash {
            let proof = parts.count == 2 ? parts[1] : ""
            guard OwnerToken(value: ShareLinkSecret.pinProof(token: token, pinHash: kept)).matches(proof) else {
                return .failure(.init(response: Self.closed(403, Pages.pinNeeded, page: page)))
            }
        }
        return .success(.guest(link, token: token))
    }

    /// The link `token` opens in this library, whatever its state.
    func link(forToken token: String) throws -> ShareLink? {
        let library = self.library
        return try Waiting.result { try await library.shareLink(forToken: token) }
    }

    /// Why `link` does not open (expired, locked by wrong PINs), as a page or as JSON; `nil` when it opens.
    func closedAnswer(_ link: ShareLink, page: Bool) -> HTTPResponse? {
        if link.isExpired() { return Self.closed(410, Pages.linkExpired, page: page) }
        if link.isLocked { return Self.closed(403, Pages.linkLocked, page: page) }
        return nil
    }

    /// The refusal of a guest's upload finishing after its link stopped adding; `nil` when it may save.
    func closedForUploads(_ linkID: String) -> HTTPResponse? {
        let library = self.library
        let links: [ShareLink]
        do { links = try Waiting.result { try await library.shareLinks() } } catch { return Self.failure(error) }
        guard let link = links.first(where: { $0.id == linkID }), !link.isExpired(), !link.isLocked,
            link.rights == .viewAndAdd
        else {
            return Self.problem(
                403, "The share link this upload came through no longer adds to its album: nothing was saved.")
        }
        return nil
    }

    // MARK: - What a guest may ask

    func guestRoute(_ request: HTTPRequest, link: ShareLink, token: String) throws -> HTTPExchange {
        let parts = request.segments.map(String.init)
        let method = request.method == "HEAD" && parts.first != "api" ? "GET" : request.method
        switch (method, parts.count) {
        case ("GET", 0):
            return .respond(indexPage(csrf: OwnerToken(value: token).csrf, guest: link))
        case ("GET", 1) where ["app.js", "app.css"].contains(parts[0]):
            return .respond(Self.asset(parts[0]))
        default: break
        }
        let notHere = Self.problem(403, "A share link shows its one album only; \(request.path) is not part of it.")
        guard parts.first == "api" else { return .respond(notHere) }
        let api = Array(parts.dropFirst())
        let missing = Self.problem(404, "There is nothing at \(request.method) \(request.path) for this share link.")
        switch (method, api.count, api.first) {
        case ("GET", 1, "album-assets"):
            guard request.query["album"] == link.albumID else { return .respond(missing) }
            return .respond(try albumAssets(link.albumID, request))
        case ("GET", 1, "cover"):
            guard request.query["album"] == link.albumID else { return .respond(missing) }
            return .respond(try cover(link.albumID))
        case ("GET", 1, "thumbnails"):
            guard request.query["album"] == link.albumID else { return .respond(missing) }
            return .respond(try thumbnails(link.albumID, request))
        case ("GET", 1, "events"):
            // The link's album alone, while the link opens (looked at again every 2 s).
            let listening = live.listen(album: link.albumID, link: link.id) { [weak self] in
                guard let self else { return false }
                // A link that cannot be read now counts as closed: the page reloads, and its next request says why.
                guard let now = try? self.link(forToken: token), now.id == link.id else { return false }
                return self.closedAnswer(now, page: false) == nil
            }
            guard let listener = listening else {
                // Too many pages of this link (or of every link) listen: this one asks again in a
                // minute (the stream ends at once and its connection closes; the browser's
                // EventSource reconnects after `retry`), and shows the album meanwhile without
                // live changes.
                return .respond(
                    HTTPResponse(
                        status: 200, contentType: "text/event-stream", text: "retry: 60000\n: busy\n\n",
                        headers: [("Cache-Control", "no-store"), ("Connection", "close")]))
            }
            return .respond(
                HTTPResponse(
                    status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store")]
                ) { connected in listener.next(whileConnected: connected) })
        case ("GET", 1, "thumbnail"), ("GET", 1, "preview"), ("GET", 1, "original"), ("HEAD", 1, "original"):
            let asset = request.query["asset"] ?? ""
            guard Self.isIdentifier(asset), try members.contains(asset, album: link.albumID, library: library) else {
                return .respond(Self.problem(404, "There is no asset \(asset) in this album."))
            }
            switch api[0] {
            case "thumbnail": return .respond(try thumbnail(asset, ifNoneMatch: request.header("If-None-Match")))
            case "preview": return .respond(try preview(asset))
            default: return .respond(try original(asset, range: request.header("Range")))
            }
        case ("POST", 1, "uploads"):
            guard link.rights == .viewAndAdd else {
                return .respond(Self.problem(403, "This share link shows the album; it does not add to it."))
            }
            return try createUpload(request, link: link)
        case ("HEAD", 2, "uploads"), ("PATCH", 2, "uploads"), ("DELETE", 2, "uploads"):
            guard link.rights == .viewAndAdd, uploads.state(of: api[1])?.description.linkID == link.id else {
                return .respond(Self.problem(404, "There is no upload \(api[1]) of this share link."))
            }
            return try route(request)
        default:
            return .respond(notHere)
        }
    }

    // MARK: - Pages

    static func closed(_ status: Int, _ text: String, page: Bool) -> HTTPResponse {
        page ? closedPage(status, text) : problem(status, text)
    }

    static func closedPage(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(
            status: status, contentType: "text/html; charset=utf-8", text: Pages.message(text),
            headers: pageHeaders + [("Set-Cookie", "\(guestCookieName)=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0")]
        )
    }

    static func pinPage(token: String, message: String?, status: Int) -> HTTPResponse {
        // The form's POST carries its Origin only when the referrer policy lets it (`no-referrer`
        // makes it "null"): the change's origin check needs it.
        HTTPResponse(
            status: status, contentType: "text/html; charset=utf-8",
            text: Pages.pinForm(action: "/s/" + token, message: message.map(htmlEscaped)),
            headers: pageHeaders.map { $0.name == "Referrer-Policy" ? ($0.name, "same-origin") : $0 })
    }
}

/// The body of the PIN form (`pin=…`, at most 1 KiB), checked when it has arrived.
final class PINForm: HTTPBodyReceiver {
    private let handler: LibraryWebHandler
    private let link: ShareLink
    private let token: String
    private let request: HTTPRequest
    private let body = Locked<[UInt8]>([])

    init(handler: LibraryWebHandler, link: ShareLink, token: String, request: HTTPRequest) {
        self.handler = handler
        self.link = link
        self.token = token
        self.request = request
    }

    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        body.withLock { body in
            body += bytes
            return body.count <= 1024
        }
    }

    func finish() -> HTTPResponse {
        let text = String(decoding: body.withLock { $0 }, as: UTF8.self)
        var pin = ""
        for pair in text.split(separator: "&") where pair.hasPrefix("pin=") {
            pin = String(pair.dropFirst(4)).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
        }
        guard !pin.isEmpty, text.utf8.count <= 1024 else {
            return LibraryWebHandler.pinPage(token: token, message: "Give the link's PIN.", status: 400)
        }
        return handler.answerPIN(pin, link: link, token: token, request: request)
    }

    func abandon() {}
}
