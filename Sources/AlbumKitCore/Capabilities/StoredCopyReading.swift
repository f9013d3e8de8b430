/// A library that reads back the copies it holds, to check them before a saved source is removed
/// (catalog and folder libraries).
///
/// ```swift
/// let reading = try await library.backend as? any StoredCopyReading
/// let sha256 = try await reading?.storedSHA256(ofAssetWithID: id)
/// ```
package protocol StoredCopyReading: LibraryBackend {
    /// The SHA-256 of asset `id`'s bytes as the library holds them, read back now (to check a copy
    /// before its source is removed); `nil` when that copy cannot be read back.
    func storedSHA256(ofAssetWithID id: String) async throws -> String?

    /// The SHA-256s of the files kept with asset `id` (``AssetInfo/companions``), read back now;
    /// empty when it has none.
    func storedCompanionSHA256s(ofAssetWithID id: String) async throws -> Set<String>

    /// Asset `id`'s files as the library holds them, read back now (``StoredCopies``): what
    /// ``SourceRemoval`` checks before it removes a saved source. `nil` when they cannot be read
    /// back as files.
    func storedCopies(ofAssetWithID id: String) async throws -> StoredCopies?
}
