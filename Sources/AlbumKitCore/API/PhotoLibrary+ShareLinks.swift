import Foundation

extension PhotoLibrary {
    /// Every share link of the library, oldest first, expired and locked ones included (they open
    /// nothing until revoked). Links are kept in the library, so every `album serve` of it honours
    /// the same ones.
    ///
    /// ```swift
    /// for link in try await library.shareLinks() where !link.isExpired() {
    ///     print(link.id, link.albumID, link.rights.rawValue)
    /// }
    /// ```
    /// - Throws: `.notSupported` for Photos; `.libraryCorrupt` naming the file when a catalog's or
    ///   folder library's links are damaged.
    public func shareLinks() async throws -> [ShareLink] {
        try await Self.mapping { try await shareLinkKeeping().shareLinks() }
    }

    /// Makes a link that shows the album with identifier `albumID` to a guest: to view it, or to
    /// view and add (``ShareLink/Rights/viewAndAdd``), until `expiresAt` (`nil`: until revoked),
    /// behind `pin` when one is given. The returned token is the secret the guest's address
    /// carries (`/s/TOKEN` of `album serve`); the library keeps only its hash, so it is shown once.
    ///
    /// ```swift
    /// let trip = try await library.albumInfo(titled: "Trip")
    /// let made = try await library.createShareLink(
    ///     forAlbumWithID: trip.id, rights: .viewAndAdd, expiresAt: Date(timeIntervalSinceNow: 7 * 86_400), pin: "2468")
    /// print(made.link.id, made.token)
    /// ```
    /// - Throws: `.albumNotFound`; `.invalidArgument` for an expiry not in the future or a PIN that
    ///   is not 4 to 64 characters; `.notSupported` for Photos.
    public func createShareLink(
        forAlbumWithID albumID: String, rights: ShareLink.Rights = .view, expiresAt: Date? = nil, pin: String? = nil
    ) async throws -> CreatedShareLink {
        try await Self.mapping {
            if let expiresAt, expiresAt <= Date() {
                throw AlbumError(.invalidArgument, "A share link's expiry must be in the future (\(expiresAt) is not).")
            }
            if let pin {
                guard (4...64).contains(pin.count), !pin.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
                    throw AlbumError(
                        .invalidArgument, "A share link's PIN is 4 to 64 characters, without control characters.")
                }
            }
            try SHA256Hasher.requireLibrary(to: "make a share link")
            let keeping = try await shareLinkKeeping()
            _ = try await albumInfo(withID: albumID)
            let token = ShareLinkSecret.randomHex(bytes: 32)
            let link = ShareLink(
                id: ShareLinkSecret.randomHex(bytes: 5), albumID: albumID, rights: rights,
                createdAt: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded()), expiresAt: expiresAt,
                tokenHash: ShareLinkSecret.tokenHash(token), pinHash: pin.map { ShareLinkSecret.PINHash(pin: $0).text })
            try await keeping.addShareLink(link)
            return CreatedShareLink(link: link, token: token)
        }
    }

    /// Revokes the share link with identifier `id` (``ShareLink/id``): it stops opening its album at
    /// once, on every server of the library, for guests already looking too.
    ///
    /// ```swift
    /// for link in try await library.shareLinks() where link.albumID == trip.id {
    ///     try await library.revokeShareLink(withID: link.id)
    /// }
    /// ```
    /// - Throws: `.invalidArgument` when the library has no such link; `.notSupported` for Photos.
    public func revokeShareLink(withID id: String) async throws {
        try await Self.mapping {
            let removed = try await shareLinkKeeping().removeShareLinks(withIDs: [id])
            guard !removed.isEmpty else {
                throw AlbumError(.invalidArgument, "There is no share link \(id) (`album shares` lists them).")
            }
        }
    }

    /// The link `token` opens, when it is one of this library's (expired, locked and PIN-guarded
    /// links are returned too: the caller says why they do not open).
    ///
    /// ```swift
    /// guard let link = try await library.shareLink(forToken: token), !link.isExpired() else { … }
    /// ```
    package func shareLink(forToken token: String) async throws -> ShareLink? {
        guard ShareLinkSecret.isToken(Substring(token)) else { return nil }
        return try await Self.mapping {
            try await shareLinkKeeping().shareLink(withTokenHash: ShareLinkSecret.tokenHash(token))
        }
    }

    /// Whether `pin` is link `link`'s PIN; a wrong one is counted by the library (every server of it
    /// shares the count), and a link at ``ShareLinkSecret/pinAttemptLimit`` wrong PINs is locked.
    ///
    /// ```swift
    /// if try await library.checkPIN(given, of: link) { … }
    /// ```
    package func checkPIN(_ pin: String, of link: ShareLink) async throws -> Bool {
        try await Self.mapping {
            guard let kept = link.pinHash.flatMap(ShareLinkSecret.PINHash.init(parsing:)), !link.isLocked else {
                return false
            }
            try SHA256Hasher.requireLibrary(to: "check a share link's PIN")
            // PBKDF2's 100 000 rounds take tens of milliseconds (seconds in a debug build on a busy
            // machine): on a thread of their own, never on one of the few cooperative threads that
            // every other request of `album serve` waits for (two guests trying PINs at once held
            // them all).
            let matches = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                Blocking.detach { continuation.resume(returning: kept.matches(pin)) }
            }
            if matches { return true }
            _ = try await shareLinkKeeping().recordWrongPIN(forLinkWithID: link.id)
            return false
        }
    }

    private func shareLinkKeeping() async throws -> any ShareLinkKeeping {
        try await capability(
            (any ShareLinkKeeping).self,
            orThrow: AlbumError(.notSupported, "This library cannot keep share links (Photos shares its own way)."))
    }
}
