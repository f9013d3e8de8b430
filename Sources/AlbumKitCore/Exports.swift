@_exported import AlbumKitMedia
