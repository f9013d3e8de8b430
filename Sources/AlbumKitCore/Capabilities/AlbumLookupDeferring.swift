/// A library that can send an album's look-up with the next request it makes anyway (a shared
/// library: with a save's first transaction), instead of in a round trip of its own.
///
/// ```swift
/// let answer = deferring.albumLater(titled: title, assetsOriginallyNamed: keys)
/// _ = try await album.save(media)          // the look-up goes with the save's first request
/// let earlier = try await answer()?.assets  // as the library was before the save changed it
/// ```
package protocol AlbumLookupDeferring: Sendable {
    /// ``AlbumBrowsing/album(titled:assetsOriginallyNamed:)``, asked for now; the closure returns
    /// its answer, sending it first if nothing has. The answer always describes the library as
    /// it was before anything this library object changes after this call.
    func albumLater(titled title: AlbumTitle, assetsOriginallyNamed keys: [String])
        -> @Sendable () async throws -> (id: String, assets: [AssetInfo])?
}
