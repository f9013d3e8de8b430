/// One page of ``PhotoLibrary/assets(in:after:limit:)``.
///
/// ```swift
/// var page = try await library.assets(in: .dateAdded, limit: 100)
/// while true {
///     for asset in page.assets { print(asset.id) }
///     guard let next = page.nextCursor else { break }
///     page = try await library.assets(in: .dateAdded, after: next, limit: 100)
/// }
/// ```
public struct AssetPage: Sendable, Hashable {
    /// The assets of this page, in the requested order.
    public let assets: [AssetInfo]
    /// Where the next page starts (an opaque token, valid for the same library and order);
    /// `nil` on the last page.
    public let nextCursor: String?

    /// Creates a page.
    public init(assets: [AssetInfo], nextCursor: String?) {
        self.assets = assets
        self.nextCursor = nextCursor
    }
}

/// A position in an ordered listing: the sort key and identifier of the last asset shown.
package struct AssetCursor: Sendable, Hashable {
    package var key: String
    package var id: String

    package init(key: String, id: String) {
        self.key = key
        self.id = id
    }

    /// Reads a token made by ``token`` for a page in `order`.
    ///
    /// - Throws: `.invalidArgument` for text that is not a cursor, or a cursor of the other order
    ///   (whose key would compare against the wrong column: an empty or repeated page).
    package init(token: String, order: AssetOrder) throws {
        let parts = token.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw AlbumError(
                .invalidArgument,
                "\"\(token)\" is not a page cursor; pass the cursor the previous page gave (its next page's --after).")
        }
        key = String(parts[0])
        id = String(parts[1])
        let other: AssetOrder = order == .dateAdded ? .captureDate : .dateAdded
        if !Self.isKey(key, of: order) && Self.isKey(key, of: other) {
            throw AlbumError(
                .invalidArgument,
                "\"\(token)\" is a cursor of a listing by \(other.shownName), not by \(order.shownName); list in the order that gave it."
            )
        }
    }

    /// Reads a token made by ``token`` for a page of an album: its key is a place in the album
    /// (a number).
    ///
    /// - Throws: `.invalidArgument` for text that is not such a cursor (one of a listing of the
    ///   whole library, say).
    package init(albumToken token: String) throws {
        let parts = token.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[1].isEmpty, !parts[0].isEmpty,
            parts[0].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), parts[0].utf8.count <= 18
        else {
            throw AlbumError(
                .invalidArgument,
                "\"\(token)\" is not a cursor of an album's pages; pass the cursor the album's previous page gave.")
        }
        key = String(parts[0])
        id = String(parts[1])
    }

    /// Whether `key` has the shape of ``AssetOrder/sortKey(of:)`` in `order`: seconds with six
    /// decimals, or a date and time.
    private static func isKey(_ key: String, of order: AssetOrder) -> Bool {
        let bytes = Array(key.utf8)
        func digits(_ range: Range<Int>) -> Bool { range.allSatisfy { bytes[$0] >= 0x30 && bytes[$0] <= 0x39 } }
        switch order {
        case .dateAdded:
            guard bytes.count >= 8, let dot = bytes.firstIndex(of: UInt8(ascii: ".")), bytes.count - dot == 7 else {
                return false
            }
            return digits(0..<dot) && digits(dot + 1..<bytes.count)
        case .captureDate:
            guard bytes.count == 19 else { return false }
            let separators: [Int: UInt8] = [4: 0x2D, 7: 0x2D, 10: 0x54, 13: 0x3A, 16: 0x3A]
            return (0..<19).allSatisfy { index in
                if let separator = separators[index] { return bytes[index] == separator }
                return digits(index..<index + 1)
            }
        }
    }

    /// `key|id`.
    package var token: String { key + "|" + id }

    /// A page of `all` (any order) after `cursor`: sorts by (key, id) and slices. For backends
    /// that list everything in memory (folders, Photos, tests).
    package static func page(
        of all: [AssetInfo], in order: AssetOrder, after cursor: AssetCursor?, limit: Int
    ) -> AssetPage {
        pageOfSorted(sorted(all, in: order), in: order, after: cursor, limit: limit)
    }

    /// `assets` sorted by (key in `order`, id), as pages list them.
    package static func sorted(_ assets: [AssetInfo], in order: AssetOrder) -> [AssetInfo] {
        assets.map { (key: order.sortKey(of: $0), asset: $0) }
            .sorted { ($0.key, $0.asset.id) < ($1.key, $1.asset.id) }
            .map(\.asset)
    }

    /// A page of `sorted` (already in `order`) after `cursor`.
    private static func pageOfSorted(
        _ sorted: [AssetInfo], in order: AssetOrder, after cursor: AssetCursor?, limit: Int
    ) -> AssetPage {
        let keyed = sorted.map { (key: order.sortKey(of: $0), asset: $0) }
            .filter { item in cursor.map { (item.key, item.asset.id) > ($0.key, $0.id) } ?? true }
        let page = keyed.prefix(max(1, limit))
        let next = keyed.count > page.count ? page.last.map { AssetCursor(key: $0.key, id: $0.asset.id).token } : nil
        return AssetPage(assets: page.map(\.asset), nextCursor: next)
    }
}
