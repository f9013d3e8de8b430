import AlbumKit
import Foundation

/// `album share TITLE [--add] [--expires DURATION|DATE] [--pin] [--url URL]`, `album shares` and
/// `album unshare ID|TITLE`: the links that show one album to a guest of `album serve`
/// (Docs/serve.md). The links are kept in the library; only their hashes.
enum ShareCommands {
    /// One link as `--json` prints it.
    struct LinkLine: Encodable {
        let id: String
        let albumID: String
        var album: String?
        let rights: String
        let created: Date
        let expires: Date?
        let pin: Bool
        let expired: Bool
        let locked: Bool
        /// Only when the link was just made: the address below the server's (`/s/TOKEN`).
        var path: String?
        /// Only when the link was just made with `--url`: the whole link.
        var url: String?

        init(_ link: ShareLink, album: String?) {
            id = link.id
            albumID = link.albumID
            self.album = album
            rights = link.rights.rawValue
            created = link.createdAt
            expires = link.expiresAt
            pin = link.requiresPIN
            expired = link.isExpired()
            locked = link.isLocked
        }
    }

    static func share(_ arguments: Arguments) async throws -> Int32 {
        let expiry = try arguments.value(.expires).map { try expiryDate($0) }
        let server = try arguments.value(.serverURL).map(serverAddress)
        let pin = arguments.has(.pin) ? try readPIN() : nil
        let library = try LibraryChoice.open(arguments, create: false)
        let album = try await AlbumReference(arguments.positional[0]).info(in: library)
        let made = try await library.createShareLink(
            forAlbumWithID: album.id, rights: arguments.has(.addRights) ? .viewAndAdd : .view, expiresAt: expiry,
            pin: pin)
        let path = "/s/" + made.token
        if arguments.json {
            var line = LinkLine(made.link, album: album.title)
            line.path = path
            line.url = server.map { $0 + path }
            Output.json(line)
            return 0
        }
        var traits = [made.link.rights == .view ? "view only" : "view and add"]
        if let expiry { traits.append("expires " + shownDate(expiry)) }
        if pin != nil { traits.append("PIN") }
        let shown =
            "Share link \(made.link.id) for \"\(Output.shown(album.title))\" (\(traits.joined(separator: ", ")))"
        if let server {
            Output.out(shown + ":")
            Output.out("  " + server + path)
        } else {
            Output.out(
                shown
                    + ". Open it on the address album serve prints (http://HOST:PORT before it; --url prints it whole):"
            )
            Output.out("  " + path)
        }
        Output.out(
            "The address holds the link's secret, shown only now: anyone who has it sees this album. album unshare \(made.link.id) revokes it."
        )
        return 0
    }

    static func list(_ arguments: Arguments) async throws -> Int32 {
        let library = try LibraryChoice.open(arguments, create: false)
        let links = try await library.shareLinks()
        let titles = Dictionary(
            try await library.albums().map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
        if arguments.json {
            Output.json(links.map { LinkLine($0, album: titles[$0.albumID]) })
        } else if links.isEmpty {
            if !arguments.quiet { Output.out("No share links.") }
        } else {
            Output.table(
                links.map { link in
                    let state = link.isLocked ? "locked" : link.isExpired() ? "expired" : "open"
                    return [
                        link.id, titles[link.albumID] ?? "(album gone) " + link.albumID,
                        link.rights == .view ? "view" : "view+add", shownDate(link.createdAt),
                        link.expiresAt.map(shownDate) ?? "never", link.requiresPIN ? "yes" : "no", state,
                    ]
                }, header: ["ID", "ALBUM", "RIGHTS", "CREATED", "EXPIRES", "PIN", "STATE"])
        }
        return 0
    }

    static func unshare(_ arguments: Arguments) async throws -> Int32 {
        let given = arguments.positional[0]
        let library = try LibraryChoice.open(arguments, create: false)
        let links = try await library.shareLinks()
        var revoked: [ShareLink]
        if let link = links.first(where: { $0.id == given }) {
            revoked = [link]
        } else {
            let album = try await AlbumReference(given).info(in: library)
            revoked = links.filter { $0.albumID == album.id }
            if revoked.isEmpty {
                throw AlbumError(
                    .invalidArgument, "The album \"\(album.title)\" has no share links (`album shares` lists them).",
                    albumTitle: album.title)
            }
        }
        for link in revoked { try await library.revokeShareLink(withID: link.id) }
        if arguments.json {
            Output.json(revoked.map(\.id))
        } else if !arguments.quiet {
            for link in revoked { Output.out("Revoked share link \(link.id).") }
        }
        return 0
    }

    /// The address `--url` gives, as the start of a link: `http://HOST[:PORT]` or
    /// `https://HOST[:PORT][/PATH]` (a reverse proxy's prefix), without a trailing `/`.
    static func serverAddress(_ text: String) throws -> String {
        let trimmed = text.hasSuffix("/") ? String(text.dropLast()) : text
        guard let parts = URLComponents(string: trimmed), let scheme = parts.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = parts.host, !host.isEmpty, parts.query == nil,
            parts.fragment == nil, parts.user == nil, parts.password == nil,
            !trimmed.contains(where: { $0.isWhitespace })
        else {
            throw UsageFailure(
                message:
                    "--url takes the address album serve is reached at, http://HOST:PORT or https://HOST[/PATH] (as its printed link starts), not \"\(text)\""
            )
        }
        return trimmed
    }

    /// `90s`, `30m`, `12h`, `7d`, `4w` from now, or a day (`2026-12-24`: until its end) or a time
    /// (`2026-12-24T18:00`), local time.
    static func expiryDate(_ text: String, now: Date = Date()) throws -> Date {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 7 * 86_400]
        if let unit = text.last.flatMap({ units[$0] }), let count = Double(text.dropLast()), count > 0,
            count * unit <= 3650 * 86_400
        {
            return now.addingTimeInterval(count * unit)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        for (format, extra) in [("yyyy-MM-dd'T'HH:mm", 0.0), ("yyyy-MM-dd'T'HH:mm:ss", 0), ("yyyy-MM-dd", 86_400)] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date.addingTimeInterval(extra) }
        }
        throw UsageFailure(
            message:
                "--expires takes a duration (90s, 30m, 12h, 7d, 4w) or a date (2026-12-24, 2026-12-24T18:00), not \"\(text)\""
        )
    }

    typealias UsageFailure = AlbumCommand.UsageFailure

    /// The PIN, from standard input's first line (asked for without echo on a terminal).
    static func readPIN() throws -> String {
        let terminal = isatty(STDIN_FILENO) == 1
        var saved = termios()
        if terminal {
            FileHandle.standardError.write(Data("PIN for the link: ".utf8))
            tcgetattr(STDIN_FILENO, &saved)
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSANOW, &quiet)
        }
        let line = readLine(strippingNewline: true)
        if terminal {
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        guard let pin = line, !pin.isEmpty else {
            throw UsageFailure(message: "--pin reads the PIN from standard input, and none came")
        }
        return pin
    }

    static func shownDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}
