import AlbumKit

/// Who a request of `album serve` comes from: the owner (the printed link's token), or the guest of
/// a share link, who sees that link's album and nothing else.
///
/// ```swift
/// switch handler.visitor(of: request) {
/// case .success(.owner): …
/// case .success(.guest(let link, _)): print(link.albumID)
/// case .failure(let refusal): return .respond(refusal.response)
/// }
/// ```
enum Visitor: Sendable {
    case owner
    /// A share link that opens (not revoked, not expired, not locked, its PIN given) and its token.
    case guest(ShareLink, token: String)

    /// The answer to a visitor who may not go on.
    struct Refusal: Error {
        let response: HTTPResponse
    }

    /// The CSRF token this visitor's changes carry (as an ``OwnerToken`` to compare with): the
    /// owner's, or one derived from the link's token.
    func csrf(owner: OwnerToken) -> OwnerToken {
        switch self {
        case .owner: OwnerToken(value: owner.csrf)
        case .guest(_, let token): OwnerToken(value: OwnerToken(value: token).csrf)
        }
    }
}
