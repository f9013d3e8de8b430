#if !canImport(ObjectiveC)
    /// The minor kind of an asset collection. Raw values match Photos.
    public enum PHAssetCollectionSubtype: Int, Sendable, Hashable {
        /// A regular album created in Photos or by an app.
        case albumRegular = 2
        /// An event synced from iPhoto / Finder.
        case albumSyncedEvent = 3
        /// A faces group synced from iPhoto / Finder.
        case albumSyncedFaces = 4
        /// An album synced from iPhoto / Finder.
        case albumSyncedAlbum = 5
        /// An album imported from a camera or external storage.
        case albumImported = 6
        /// The user's My Photo Stream.
        case albumMyPhotoStream = 100
        /// An iCloud Shared Album.
        case albumCloudShared = 101
        /// A smart album of no specific type.
        case smartAlbumGeneric = 200
        /// Panoramas.
        case smartAlbumPanoramas = 201
        /// Videos.
        case smartAlbumVideos = 202
        /// Favorites.
        case smartAlbumFavorites = 203
        /// Time-lapse videos.
        case smartAlbumTimelapses = 204
        /// Hidden assets.
        case smartAlbumAllHidden = 205
        /// Recently added assets.
        case smartAlbumRecentlyAdded = 206
        /// Bursts.
        case smartAlbumBursts = 207
        /// Slow-motion videos.
        case smartAlbumSlomoVideos = 208
        /// The user's whole library ("Recents").
        case smartAlbumUserLibrary = 209
        /// Selfies.
        case smartAlbumSelfPortraits = 210
        /// Screenshots.
        case smartAlbumScreenshots = 211
        /// Photos with depth effect.
        case smartAlbumDepthEffect = 212
        /// Live Photos.
        case smartAlbumLivePhotos = 213
        /// Animated images.
        case smartAlbumAnimated = 214
        /// Long exposures.
        case smartAlbumLongExposures = 215
        /// Assets that could not be uploaded.
        case smartAlbumUnableToUpload = 216
        /// RAW photos.
        case smartAlbumRAW = 217
        /// Cinematic videos.
        case smartAlbumCinematic = 218
        /// Spatial media.
        case smartAlbumSpatial = 219
        /// Screen recordings.
        case smartAlbumScreenRecordings = 220
        /// Matches every subtype when fetching (`NSIntegerMax`).
        case any = 9223372036854775807
    }
#endif
