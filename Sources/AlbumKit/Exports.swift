@_exported import AlbumKitCore
@_exported import AlbumKitCatalog
@_exported import AlbumKitFolders
#if canImport(AlbumKitShared)
    @_exported import AlbumKitShared
#endif
