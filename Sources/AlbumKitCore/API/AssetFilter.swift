import Foundation

/// Which assets a listing by ``PhotoLibrary/assets(orderedBy:matching:after:limit:)`` returns: photos,
/// videos or both, and a range of the order's own date (the date added for
/// ``AssetOrder/dateAdded``, the capture date for ``AssetOrder/captureDate``).
///
/// ```swift
/// let lastWeek = AssetFilter(kinds: [.video], dates: Date().addingTimeInterval(-7 * 86_400)..<Date())
/// let page = try await library.assets(orderedBy: .captureDate, matching: lastWeek, limit: 50)
/// ```
public struct AssetFilter: Sendable, Hashable {
    /// The kinds listed; `nil` lists every kind.
    public var kinds: Set<MediaKind>?
    /// The dates listed (from the lower bound, before the upper one); `nil` lists every date. A capture
    /// date without a time zone is compared as if it were UTC (as the order by capture date sorts it).
    public var dates: Range<Date>?

    /// A filter; with no arguments, every asset.
    public init(kinds: Set<MediaKind>? = nil, dates: Range<Date>? = nil) {
        self.kinds = kinds
        self.dates = dates
    }

    /// Every asset.
    public static let all = AssetFilter()

    /// Photos only.
    public static let photos = AssetFilter(kinds: [.photo])

    /// Videos only.
    public static let videos = AssetFilter(kinds: [.video])

    /// Whether the filter lets every asset through.
    package var isEverything: Bool { kinds == nil && dates == nil }

    /// Whether `asset` passes, judged by its sort key in `order` (so the filter and the order agree).
    package func matches(_ asset: AssetInfo, in order: AssetOrder) -> Bool {
        if let kinds, !kinds.contains(asset.kind) { return false }
        guard let bounds = keyBounds(in: order) else { return true }
        let key = order.sortKey(of: asset)
        return key >= bounds.lower && key < bounds.upper
    }

    /// The date range as sort keys of `order`.
    package func keyBounds(in order: AssetOrder) -> (lower: String, upper: String)? {
        guard let dates else { return nil }
        return (order.sortKey(of: dates.lowerBound), order.sortKey(of: dates.upperBound))
    }
}
