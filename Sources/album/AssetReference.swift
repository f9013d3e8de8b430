import AlbumKit

/// Assets named on the command line (`add`, `remove`, `delete-asset`): each argument is an asset
/// id as `show` and `assets` list it, else the start of exactly one id (at least 4 characters:
/// `9bca90d2`), else the file name of exactly one asset (`IMG_0001.JPG`, as it was saved or as it
/// is stored).
///
/// ```
/// album add "Best of" 9bca90d2 IMG_0001.JPG
/// ```
enum AssetReference {
    /// The ids the arguments name, in their order. The arguments are tried as ids first (`attempt`
    /// with them as given); only when one is unknown are the candidates read, as they stream, to
    /// resolve prefixes and file names (only the assets an argument could name are kept: memory
    /// does not grow with the library), and `attempt` runs again with what they name.
    ///
    /// - Throws: `.assetNotFound` naming an argument that names no asset; `.invalidArgument`
    ///   naming the assets an argument could mean when it names several.
    static func resolving<T>(
        _ arguments: [String], among candidates: () -> AsyncThrowingStream<AssetInfo, any Error>,
        attempt: ([String]) async throws -> T
    ) async throws -> T {
        do {
            return try await attempt(arguments)
        } catch let error as AlbumError where error.code == .assetNotFound {
            var named = [[AssetInfo]](repeating: [], count: arguments.count)
            for try await asset in candidates() {
                for (index, argument) in arguments.enumerated() where mayName(argument, asset) {
                    named[index].append(asset)
                }
            }
            let ids = try arguments.indices.map { try resolve(arguments[$0], among: named[$0]) }
            guard ids != arguments else { throw error }
            return try await attempt(ids)
        }
    }

    /// Whether `argument` could name `asset` (its id, the start of it, or its file name): what
    /// ``resolve(_:among:)`` chooses among.
    static func mayName(_ argument: String, _ asset: AssetInfo) -> Bool {
        asset.id == argument || (argument.count >= 4 && asset.id.hasPrefix(argument))
            || asset.originalFilename == argument || asset.fileURL?.lastPathComponent == argument
    }

    /// The one asset among `assets` that `argument` names.
    static func resolve(_ argument: String, among assets: [AssetInfo]) throws -> String {
        if assets.contains(where: { $0.id == argument }) { return argument }
        var matches = argument.count >= 4 ? assets.filter { $0.id.hasPrefix(argument) } : []
        if matches.isEmpty {
            matches = assets.filter { $0.originalFilename == argument || $0.fileURL?.lastPathComponent == argument }
        }
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
                "\"\(argument)\" could be \(matches.count) assets: \(listed)\(matches.count > 5 ? ", …" : ""); give more of the id."
            )
        }
    }

    /// Every asset of the library, a page at a time, for resolving names.
    static func all(in library: PhotoLibrary) -> AsyncThrowingStream<AssetInfo, any Error> {
        library.allAssets()
    }

    /// The assets of the album `albumID`, a page at a time, for resolving names.
    static func album(_ albumID: String, in library: PhotoLibrary) -> AsyncThrowingStream<AssetInfo, any Error> {
        library.allAssets(inAlbumWithID: albumID)
    }
}
