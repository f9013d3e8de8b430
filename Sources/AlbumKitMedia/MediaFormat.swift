/// Whether a media file is a photo or a video.
///
/// ```swift
/// if metadata.kind == .video { print(metadata.duration ?? 0) }
/// ```
public enum MediaKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A still image (including animated GIF/WebP and raw files).
    case photo
    /// A movie.
    case video
}

/// The container format of a media file, identified from its content, never its name.
///
/// ```swift
/// MediaFormat.heic.fileExtension   // "heic"
/// ```
public enum MediaFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case jpeg, png, gif, webp, heic, heif, avif, tiff, dng, raw, bmp
    case mp4, mov, m4v
    case threeGP = "3gp"

    /// Photo or video.
    public var kind: MediaKind {
        switch self {
        case .mp4, .mov, .m4v, .threeGP: .video
        default: .photo
        }
    }

    /// The file extension a stored original of this format gets (lowercase, no dot).
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .tiff: "tif"
        case .raw: "raw"
        default: rawValue
        }
    }
}
