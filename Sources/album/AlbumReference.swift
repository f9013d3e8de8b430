import AlbumKit

/// An album named on the command line. `TITLE` arguments take a title, or `id:ID` for the album
/// with that identifier (as `album albums` lists it); a title that itself starts with `id:` or
/// `title:` is written after `title:` (`title:id:2024`).
///
/// ```
/// album show "Trips"            album show id:3f2a9c0e-…       album show title:id:2024
/// ```
enum AlbumReference: Equatable {
    case title(String)
    case id(String)

    init(_ argument: String) {
        if argument.hasPrefix("id:") {
            self = .id(String(argument.dropFirst(3)))
        } else if argument.hasPrefix("title:") {
            self = .title(String(argument.dropFirst(6)))
        } else {
            self = .title(argument)
        }
    }

    /// The album, resolved as saves resolve titles.
    func info(in library: PhotoLibrary) async throws -> AlbumInfo {
        switch self {
        case .title(let title): try await library.albumInfo(titled: title)
        case .id(let id): try await library.albumInfo(withID: id)
        }
    }

    /// The album's identifier: looked up, its contents not counted.
    func id(in library: PhotoLibrary) async throws -> String {
        switch self {
        case .id(let id):
            _ = try await library.albumInfo(withID: id)
            return id
        case .title(let title): return try await library.albumID(titled: title)
        }
    }

    /// The album's assets whose original file name is one of `names`, found with the album in one
    /// request where the library can; none for an album not found (yet): it has no versions to
    /// tell, and the save itself reports any error of the look-up.
    func assets(originallyNamed names: [String], in library: PhotoLibrary) async throws -> [AssetInfo] {
        switch self {
        case .id:
            // Not found (yet), or not looked up: no versions to tell; the save reports the error.
            guard let id = try? await id(in: library) else { return [] }
            return try await library.assets(inAlbumWithID: id, originallyNamed: names)
        case .title(let title):
            // As above: the save itself looks the album up again and reports what went wrong.
            return ((try? await library.album(titled: title, assetsOriginallyNamed: names)) ?? nil)?.assets ?? []
        }
    }

    /// As ``assets(originallyNamed:in:)``, as the album is now, returned by the closure where the
    /// library sends the look-up with the save that follows (a shared library: one round trip
    /// fewer); `nil` where it cannot, and the caller asks now.
    func assetsLater(originallyNamed names: [String], in library: PhotoLibrary) async
        -> (@Sendable () async -> [AssetInfo])?
    {
        guard case .title(let title) = self,
            let answer = await library.albumLater(titled: title, assetsOriginallyNamed: names)
        else { return nil }
        // As above: not found, or the look-up failed — no versions to tell; the save reports the error.
        return { ((try? await answer()) ?? nil)?.assets ?? [] }
    }

    /// How messages name it.
    var shown: String {
        switch self {
        case .title(let title): "\"\(title)\""
        case .id(let id): "id:\(id)"
        }
    }
}
