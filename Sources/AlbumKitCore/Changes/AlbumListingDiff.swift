import Foundation

/// The one place where two listings of an album become an ``AlbumChange``, for every library kind:
/// which assets left, which came, which changed their description and which changed place.
package enum AlbumListingDiff {
    /// The change from `before` (a token's listing) to `after` (the album `albumID` listed now, in
    /// `order`; `nil` when no album resolves). `alsoChanged` names assets the library reports
    /// changed whatever their descriptions show (Photos' history: an edit of the picture);
    /// `libraryPosition` goes into the new token.
    package static func change(
        from before: AlbumChangeToken, to after: [AssetInfo], albumID: String?, order: AssetOrder,
        alsoChanged: Set<String> = [], libraryPosition: Data? = nil
    ) -> AlbumChange {
        let token = AlbumChangeToken(albumID: albumID, order: order, assets: after, libraryPosition: libraryPosition)
        let albumGone = before.albumID != nil && before.albumID != albumID
        // Another album (or none): everything before left, everything now is new.
        let old = albumGone ? [] : before.entries
        let oldIndex = Dictionary(old.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        let newIDs = Set(token.entries.map(\.id))
        let removedFrom = before.entries
        let removed =
            albumGone ? Array(removedFrom.indices) : removedFrom.indices.filter { !newIDs.contains(removedFrom[$0].id) }
        var inserted: [Int] = []
        var changed: [Int] = []
        var stayed: [(before: Int, after: Int)] = []
        for (index, entry) in token.entries.enumerated() {
            guard let was = oldIndex[entry.id] else {
                inserted.append(index)
                continue
            }
            stayed.append((was, index))
            if old[was].fingerprint != entry.fingerprint || alsoChanged.contains(entry.id) { changed.append(index) }
        }
        // The assets that stayed in their relative order are the longest increasing run of their
        // positions before; the others moved.
        let kept = longestIncreasingSubsequence(stayed.map(\.before))
        let moves = stayed.indices.filter { !kept.contains($0) }.map {
            AlbumChange.Move(from: stayed[$0].before, to: stayed[$0].after)
        }
        return AlbumChange(
            albumID: albumID, assets: after, removedIndexes: removed,
            removedAssetIDs: removed.map { removedFrom[$0].id },
            insertedIndexes: inserted, changedIndexes: changed, moves: moves, isAlbumDeleted: albumGone,
            token: token)
    }

    /// The positions in `values` of one longest strictly increasing subsequence (patience sorting,
    /// O(n log n)).
    static func longestIncreasingSubsequence(_ values: [Int]) -> Set<Int> {
        var tails: [Int] = []  // positions in `values` of the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (position, value) in values.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var result = Set<Int>()
        var position = tails.last ?? -1
        while position >= 0 {
            result.insert(position)
            position = previous[position]
        }
        return result
    }
}
