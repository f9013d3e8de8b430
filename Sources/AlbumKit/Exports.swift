@_exported import AlbumKitCore
