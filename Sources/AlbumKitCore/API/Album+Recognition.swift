/// Saving into an album that recognises files the library already holds before copying them
/// (``RecognitionCheck``).
extension Album {
    /// As ``save(_:progress:onResult:)``, with files the library already holds recognised by
    /// `check` first: never copied, only added to the album where they are not in it yet.
    ///
    /// ```swift
    /// let results = await library.album(titled: "Trips").save(card.map { .path($0) }, recognising: .quick)
    /// ```
    package func save(
        _ media: [Media], recognising check: RecognitionCheck, progress: (@Sendable (SaveProgress) -> Void)? = nil,
        onResult: (@Sendable (_ index: Int, _ result: Result<SavedAsset, AlbumError>) -> Void)? = nil
    ) async -> [Result<SavedAsset, AlbumError>] {
        await PhotoLibrary.run(
            library.opening, media, album: title, albumID: boundID, policy: accessPolicy, recognising: check,
            progress: progress, onResult: onResult)
    }
}
