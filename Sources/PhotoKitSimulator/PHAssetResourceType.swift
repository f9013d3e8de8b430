#if !canImport(ObjectiveC)
    /// The kind of a data resource that belongs to an asset.
    ///
    /// Raw values match Photos. The set may grow: switch over it with `@unknown default`.
    public enum PHAssetResourceType: Int, Sendable, Hashable {
        /// The original photo.
        case photo = 1
        /// The original video.
        case video = 2
        /// The original audio.
        case audio = 3
        /// An alternate photo, such as the JPEG of a RAW+JPEG pair.
        case alternatePhoto = 4
        /// The current, edited photo.
        case fullSizePhoto = 5
        /// The current, edited video.
        case fullSizeVideo = 6
        /// Edit data (adjustments).
        case adjustmentData = 7
        /// The unaltered base photo of an edit.
        case adjustmentBasePhoto = 8
        /// The paired video of a Live Photo.
        case pairedVideo = 9
        /// The current, edited paired video of a Live Photo.
        case fullSizePairedVideo = 10
        /// The unaltered base paired video of an edit.
        case adjustmentBasePairedVideo = 11
        /// The unaltered base video of an edit.
        case adjustmentBaseVideo = 12
        /// A photo proxy, replaced later by the final photo.
        case photoProxy = 19
    }
#endif
