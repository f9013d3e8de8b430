import Foundation

/// The order of ``PhotoLibrary/assets(orderedBy:matching:after:limit:)``: when assets were added, or when they
/// were taken. Ties break by identifier, so a page never repeats or skips an asset.
///
/// ```swift
/// let newest = try await library.assets(orderedBy: .captureDate, limit: 50)
/// ```
public enum AssetOrder: String, Sendable, Hashable, CaseIterable, Codable {
    /// When the asset was added to the library, oldest first.
    case dateAdded
    /// When the photo or video was taken (the wall-clock time the camera recorded), oldest first;
    /// assets without a capture date take their date added (UTC) instead.
    case captureDate

    /// How messages name the order.
    var shownName: String {
        switch self {
        case .dateAdded: "date added"
        case .captureDate: "date taken"
        }
    }

    /// The text that sorts `asset` in this order (fixed width, so text order is time order).
    package func sortKey(of asset: AssetInfo) -> String {
        switch self {
        case .dateAdded: Self.dateAddedKey(asset.addedAt.timeIntervalSince1970)
        case .captureDate: Self.captureKey(asset.metadata?.captureDate, addedAt: asset.addedAt.timeIntervalSince1970)
        }
    }

    /// The text that sorts an asset dated `date` in this order (UTC for the capture date).
    package func sortKey(of date: Date) -> String {
        switch self {
        case .dateAdded: Self.dateAddedKey(date.timeIntervalSince1970)
        case .captureDate: Self.captureKey(nil, addedAt: date.timeIntervalSince1970)
        }
    }

    /// Seconds since 1970 as `%017.6f` (what the catalog's SQL `printf` writes too).
    package static func dateAddedKey(_ seconds: TimeInterval) -> String {
        String(format: "%017.6f", max(0, seconds))
    }

    /// The first 19 characters of an ISO 8601 capture date (`2024-05-01T10:20:30`), else the
    /// date added in UTC in the same shape.
    package static func captureKey(_ captureDate: String?, addedAt: TimeInterval) -> String {
        if let captureDate, captureDate.utf8.count >= 19 { return String(captureDate.prefix(19)) }
        return ISODate.string(unixSeconds: Int64(max(0, addedAt.rounded(.down)))).map { String($0.prefix(19)) }
            ?? "1970-01-01T00:00:00"
    }
}
