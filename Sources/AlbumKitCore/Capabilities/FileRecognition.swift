/// A library that finds files it already holds before they are copied (catalog and folder
/// libraries), so a save adds them to the album instead of copying them again. The saver never
/// probes a library without it.
///
/// It refines ``AlbumEditing``: a file found already saved is added to the album with
/// ``AlbumEditing/addAssets(_:toAlbumWithID:)``.
///
/// ```swift
/// let found = try await recognising.recognise([FileProbe(.file(url), hashing: false)], in: request)
/// ```
package protocol FileRecognition: AlbumEditing {
    /// For each probe, the asset that already holds that file where a save into `album` looks
    /// for it (a catalog: the whole library; a folder library: the album's folder, or the top folder
    /// without an album), or `nil`: by original name, size and modification time when the probe
    /// was not read, by size and SHA-256 when it was (``FileProbe/sha256``), never by reading the
    /// library's copy where the library records its hash. Reads only; a `nil` probe is `nil`.
    func recognise(_ probes: [FileProbe?], in album: AlbumRequest?) async throws -> [RecognisedFile?]
}
