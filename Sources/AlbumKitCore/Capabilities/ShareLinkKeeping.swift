/// A library that keeps share links (``ShareLink``) among its own records, so that every process
/// and every server of the library sees the same links: the catalog and the folder library in a
/// file of theirs (``ShareLinkFile``), the shared library in a table, the in-memory library in
/// memory. Photos keeps none.
///
/// ```swift
/// let keeping = try await library.capability((any ShareLinkKeeping).self, for: "keep share links")
/// try await keeping.addShareLink(link)
/// ```
package protocol ShareLinkKeeping: LibraryBackend {
    /// Every link kept, expired and locked ones included, oldest first.
    func shareLinks() async throws -> [ShareLink]

    /// Keeps `link` (its identifier and token hash are new).
    func addShareLink(_ link: ShareLink) async throws

    /// Removes the links with identifiers `ids`; the identifiers that were there.
    func removeShareLinks(withIDs ids: Set<String>) async throws -> [String]

    /// Counts one wrong PIN against link `id`; the wrong PINs counted now, `nil` when there is no
    /// such link. Counted by the library, so every server of it shares the limit.
    func recordWrongPIN(forLinkWithID id: String) async throws -> Int?
}

extension ShareLinkKeeping {
    /// The link whose token hashes to `tokenHash`, if any (kinds with an index override it).
    package func shareLink(withTokenHash tokenHash: String) async throws -> ShareLink? {
        try await shareLinks().first { $0.tokenHash == tokenHash }
    }
}
