/// A library that describes an album's changes itself (Photos, through its change observer, the
/// change details of a fetch and its persistent change history), instead of AlbumKit listing the
/// album again on every library change and comparing the listings.
///
/// ``Album/changes(orderedBy:since:interval:)`` uses it when the library's backend is one.
package protocol AlbumChangeSource: Sendable {
    /// The album's changes, as ``Album/changes(orderedBy:since:interval:)`` documents them: first the
    /// album now compared with `token` (or with nothing), then each change the library reports.
    /// `resolve` gives the album's identifier now, as saves resolve it (the album listed before
    /// while it exists, else the one its title names, else `nil`), given the last token yielded.
    func albumChanges(
        orderedBy order: AssetOrder, since token: AlbumChangeToken?,
        resolve: @escaping @Sendable (AlbumChangeToken) async throws -> String?
    ) -> AsyncThrowingStream<AlbumChange, any Error>
}
