import AlbumKitCore

/// A catalog keeps its share links in `shares/links.json` (``ShareLinkFile``), beside its journal:
/// links are not photos or albums, so they stay out of the journal's history and its replays.
extension CatalogBackend: ShareLinkFileKeeping {
    package var shareLinkFile: ShareLinkFile { ShareLinkFile(root: root.path, folder: "shares") }

    package func requireLinksWritable() throws {
        guard !isReadOnly else {
            throw AlbumError(
                .libraryUnwritable, "\(root.path) is on read-only media: its share links cannot change.",
                file: root.path)
        }
    }
}
