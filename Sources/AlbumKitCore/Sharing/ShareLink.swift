import Foundation

/// A link that shows one album to someone without the library (a guest): to view it, or to view it
/// and add photos to it, until it expires or is revoked, optionally behind a PIN. The link lives in
/// the library, so every `album serve` of that library honours it; the library keeps only a hash of
/// its secret token and of its PIN.
///
/// ```swift
/// for link in try await library.shareLinks() {
///     print(link.id, link.albumID, link.rights, link.expiresAt ?? "never", link.requiresPIN)
/// }
/// ```
public struct ShareLink: Sendable, Hashable, Identifiable {
    /// What a guest of a link may do in its album.
    public enum Rights: String, Sendable, Hashable, CaseIterable {
        /// See the album, its photos and their originals.
        case view
        /// As ``view``, and add photos and videos to the album.
        case viewAndAdd = "add"
    }

    /// The link's short identifier (10 hexadecimal digits): `album unshare` takes it. It is not the
    /// secret: knowing it opens nothing.
    public let id: String
    /// The album the link shows.
    public let albumID: String
    public let rights: Rights
    public let createdAt: Date
    /// When the link stops working; `nil`: until revoked.
    public let expiresAt: Date?
    /// The SHA-256 of the link's token, as lowercase hexadecimal.
    package let tokenHash: String
    /// The PIN's ``ShareLinkSecret`` hash (`pbkdf2-sha256$…`), `nil` without a PIN.
    package let pinHash: String?
    /// Wrong PINs given so far; at ``ShareLinkSecret/pinAttemptLimit`` the link is locked.
    package var failedPINAttempts: Int

    /// Whether a guest must give a PIN.
    public var requiresPIN: Bool { pinHash != nil }

    /// Whether so many wrong PINs were given that the link no longer opens.
    public var isLocked: Bool { failedPINAttempts >= ShareLinkSecret.pinAttemptLimit }

    /// Whether the link has expired at `date`.
    ///
    /// ```swift
    /// if link.isExpired() { print("expired") }
    /// ```
    public func isExpired(at date: Date = Date()) -> Bool { expiresAt.map { $0 <= date } ?? false }

    package init(
        id: String, albumID: String, rights: Rights, createdAt: Date, expiresAt: Date?, tokenHash: String,
        pinHash: String?, failedPINAttempts: Int = 0
    ) {
        self.id = id
        self.albumID = albumID
        self.rights = rights
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.tokenHash = tokenHash
        self.pinHash = pinHash
        self.failedPINAttempts = failedPINAttempts
    }

    /// Whether the values read back from a library are ones AlbumKit writes (an identifier of 10
    /// hexadecimal digits, a SHA-256, a PIN hash in its form, an album identifier): a record that
    /// is not is damaged and opens nothing.
    package var isWellFormed: Bool {
        id.utf8.count == 10 && id.utf8.allSatisfy(Self.isHexDigit) && tokenHash.utf8.count == 64
            && tokenHash.utf8.allSatisfy(Self.isHexDigit) && !albumID.isEmpty && albumID.utf8.count <= 1024
            && (pinHash.map { ShareLinkSecret.PINHash(parsing: $0) != nil } ?? true) && failedPINAttempts >= 0
    }

    static func isHexDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) || (97...102).contains(byte) }
}
