import AlbumKitCore

/// A folder library keeps its share links in `.albumkit/shares/links.json` (``ShareLinkFile``), hidden
/// beside its remembered albums, where photo tools never show them.
extension FolderBackend: ShareLinkFileKeeping {
    package var shareLinkFile: ShareLinkFile {
        ShareLinkFile(root: root.path, folder: FolderLibraryState.directoryName + "/shares")
    }
}
