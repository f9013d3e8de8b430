import AlbumKit

/// Assets named on the command line (`add`, `remove`, `delete-asset`): each argument is an asset
/// id as `show` and `assets` list it, else the start of exactly one id (at least 4 characters:
/// `9bca90d2`), else the file name of exactly one asset (`IMG_0001.JPG`, as it was saved, else as
/// it is stored in the library).
///
/// ```
/// album add "Best of" 9bca90d2 IMG_0001.JPG
/// ```
enum AssetReference {
    /// The ids the arguments name, in their order. The arguments are tried as ids first (`attempt`
    /// with them as given); only when one is unknown are the assets they may name looked for in
    /// `library` (among album `albumID`'s when given: ``PhotoLibrary/assets(possiblyNamedBy:inAlbumWithID:)``,
    /// a seek per argument in a catalog) and `attempt` runs again with what they name.
    ///
    /// - Throws: `.assetNotFound` naming an argument that names no asset; `.invalidArgument`
    ///   naming the assets an argument could mean when it names several.
    static func resolving<T>(
        _ arguments: [String], in library: PhotoLibrary, album albumID: String? = nil,
        attempt: ([String]) async throws -> T
    ) async throws -> T {
        do {
            return try await attempt(arguments)
        } catch let error as AlbumError where error.code == .assetNotFound {
            let named = try await library.assets(possiblyNamedBy: arguments, inAlbumWithID: albumID)
            let ids = try arguments.indices.map { try resolve(arguments[$0], among: named[$0]) }
            guard ids != arguments else { throw error }
            return try await attempt(ids)
        }
    }

    /// The one asset among `assets` that `argument` names.
    static func resolve(_ argument: String, among assets: [AssetInfo]) throws -> String {
        if assets.contains(where: { $0.id == argument }) { return argument }
        var matches = argument.count >= 4 ? assets.filter { $0.id.hasPrefix(argument) } : []
        if matches.isEmpty { matches = assets.filter { $0.originalFilename == argument } }
        if matches.isEmpty { matches = assets.filter { $0.fileURL?.lastPathComponent == argument } }
        switch matches.count {
        case 1: return matches[0].id
        case 0:
            throw AlbumError(
                .assetNotFound,
                "No asset has the id, the start of an id or the file name \"\(argument)\" (`album show TITLE` lists ids and names)."
            )
        default:
            let listed = matches.prefix(5).map { "\($0.id) (\($0.originalFilename ?? "-"))" }.joined(separator: ", ")
            throw AlbumError(
                .invalidArgument,
                "\"\(argument)\" could be \(matches.count < PhotoLibrary.possiblyNamedLimit ? "" : "at least ")\(matches.count) assets: \(listed)\(matches.count > 5 ? ", …" : ""); give more of the id."
            )
        }
    }
}
