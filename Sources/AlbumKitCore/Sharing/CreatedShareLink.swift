/// A share link just made, with its token: the secret a guest's address carries. The library keeps
/// only the token's hash, so this is the one time it can be shown.
///
/// ```swift
/// let made = try await library.createShareLink(forAlbumWithID: trip.id, rights: .view)
/// print("http://192.168.1.20:8080/s/" + made.token)
/// ```
public struct CreatedShareLink: Sendable, Hashable {
    /// The link as the library keeps it.
    public let link: ShareLink
    /// The secret: 64 lowercase hexadecimal digits (256 random bits).
    public let token: String

    package init(link: ShareLink, token: String) {
        self.link = link
        self.token = token
    }
}
