@_exported import AlbumKitCore
#if canImport(AlbumKitShared)
    @_exported import AlbumKitShared
#endif
