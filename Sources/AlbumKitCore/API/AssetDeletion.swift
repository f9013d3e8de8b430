import Foundation

/// What deleting one asset did.
///
/// ```swift
/// for deleted in try await library.deleteAssets(withIDs: [id]) {
///     print(deleted.id, deleted.trashURL?.path ?? "removed")
/// }
/// ```
public struct AssetDeletion: Sendable, Hashable {
    /// The asset's identifier.
    public let id: String
    /// Where its file went in the Trash (folder libraries); `nil` when the library removed it
    /// itself (a catalog) or keeps it in its own "Recently Deleted" (Photos).
    public let trashURL: URL?
    /// Until when it can be restored from the library's recently deleted (a shared library);
    /// `nil` when the library has none.
    public var restorableUntil: Date?

    /// Creates a description.
    public init(id: String, trashURL: URL? = nil, restorableUntil: Date? = nil) {
        self.id = id
        self.trashURL = trashURL
        self.restorableUntil = restorableUntil
    }
}
