import AlbumKitCore
import AlbumKitFolders
import Foundation

#if !canImport(Photos)
    extension PhotoLibrary {
        /// The user's photo library. On Linux: a folder library in the XDG Pictures folder
        /// (`XDG_PICTURES_DIR` from `~/.config/user-dirs.dirs`, e.g. `~/Bilder`; `~/Pictures` when
        /// it is not set), whose sub-folders are the albums other photo apps show.
        ///
        /// ```swift
        /// let saved = try await PhotoLibrary.system.album(titled: "Screenshots").save(.file(url))
        /// ```
        ///
        /// The location is read again on every access (the user may change it). `~/Pictures`
        /// (or the configured folder directly inside the home folder) is created on the first save
        /// when missing; any other missing folder (an unmounted disk) makes saves fail with
        /// `.libraryNotFound`.
        public static var system: PhotoLibrary {
            PhotoLibrary(backend: FolderBackend.system())
        }
    }
#endif
