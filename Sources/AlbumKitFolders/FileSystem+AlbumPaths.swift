import AlbumKitCore

extension FileSystem {
    /// Opens the album folder at `path` below `root` one level at a time, never following a
    /// symlink at any level.
    package static func openDirectory(_ path: FolderAlbumPath, in root: Descriptor) throws(SystemError) -> Descriptor {
        try openDirectory(components: path.components, in: root)
    }
}
