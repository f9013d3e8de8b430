/// A library that finds the assets a short reference may name — an id, the start of one, a file
/// name (``AssetInfo/mayBeNamed(by:)``) — by seeking in its index, so naming one asset costs the
/// same in a library of ten or a million (the catalog). Without it,
/// ``PhotoLibrary/assets(possiblyNamedBy:inAlbumWithID:)`` reads the assets once for all references.
///
/// ```swift
/// let candidates = try await naming.assets(possiblyNamedBy: "9bca90d2", inAlbumWithID: nil, limit: 100)
/// ```
package protocol AssetNaming: LibraryBackend {
    /// At most `limit` assets, not deleted, that `reference` may name, in any order; only those of
    /// album `albumID` when it is given. It may return more than the reference names (the caller
    /// keeps those ``AssetInfo/mayBeNamed(by:)`` accepts), never fewer — except that, as a
    /// reference names by the first rule that names any asset (its whole id, the start of ids, the
    /// original file name, the file's name in the library), the assets only a later rule names may
    /// be left out when an earlier one names some.
    func assets(possiblyNamedBy reference: String, inAlbumWithID albumID: String?, limit: Int) async throws
        -> [AssetInfo]
}

extension AssetInfo {
    /// Whether `reference` may name this asset: it is the asset's id, the start of it (4 characters
    /// or more), its original file name, or the name of its file in the library.
    ///
    /// ```swift
    /// asset.mayBeNamed(by: "IMG_0001.JPG")
    /// ```
    package func mayBeNamed(by reference: String) -> Bool {
        id == reference || (reference.count >= 4 && id.hasPrefix(reference)) || originalFilename == reference
            || fileURL?.lastPathComponent == reference
    }
}

extension PhotoLibrary {
    /// How many assets a reference is looked for among, at most: enough to list a few and say that
    /// it names several.
    package static let possiblyNamedLimit = 1_000

    /// For each of `references`, the assets it may name (``AssetInfo/mayBeNamed(by:)``), at most
    /// ``possiblyNamedLimit``, among album `albumID`'s when it is given: seeks where the library
    /// can (``AssetNaming``), else one reading of the assets for all references, keeping only what
    /// one of them may name (memory does not grow with the library).
    ///
    /// ```swift
    /// let candidates = try await library.assets(possiblyNamedBy: ["9bca90d2", "IMG_0001.JPG"])
    /// ```
    package func assets(possiblyNamedBy references: [String], inAlbumWithID albumID: String? = nil) async throws
        -> [[AssetInfo]]
    {
        let limit = Self.possiblyNamedLimit
        if let naming = try await backend as? any AssetNaming {
            return try await Self.mapping {
                var found: [[AssetInfo]] = []
                for reference in references {
                    found.append(
                        try await naming.assets(possiblyNamedBy: reference, inAlbumWithID: albumID, limit: limit)
                            .filter { $0.mayBeNamed(by: reference) })
                }
                return found
            }
        }
        var found = [[AssetInfo]](repeating: [], count: references.count)
        let assets = albumID.map { allAssets(inAlbumWithID: $0) } ?? allAssets()
        for try await asset in assets {
            for (index, reference) in references.enumerated()
            where found[index].count < limit && asset.mayBeNamed(by: reference) {
                found[index].append(asset)
            }
        }
        return found
    }
}
