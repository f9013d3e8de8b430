@_exported import AlbumKitCore
@_exported import AlbumKitCatalog
#if canImport(AlbumKitShared)
    @_exported import AlbumKitShared
#endif
