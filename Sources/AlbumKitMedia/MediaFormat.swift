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
    /// JPEG/JFIF/EXIF (`.jpg`).
    case jpeg
    /// PNG, including APNG.
    case png
    /// GIF 87a/89a, still or animated.
    case gif
    /// WebP: lossy, lossless or animated.
    case webp
    /// HEIF with HEVC images (`heic`, `heix`, … brands).
    case heic
    /// HEIF with other or no declared codec brands (`mif1`).
    case heif
    /// AV1 image file (`avif`/`avis` brands).
    case avif
    /// TIFF, classic or BigTIFF (`.tif`).
    case tiff
    /// Adobe Digital Negative (a TIFF with DNGVersion).
    case dng
    /// A camera maker's raw file (CR2, CR3, NEF, ARW, ORF, RW2, Fujifilm RAF, …).
    case raw
    /// Windows/OS2 bitmap.
    case bmp
    /// MPEG-4 movie (ISO base media, `isom`/`mp41`/`mp42`/… brands).
    case mp4
    /// QuickTime movie (`qt  ` brand, or no `ftyp`).
    case mov
    /// iTunes video (`M4V ` brands).
    case m4v
    /// 3GPP/3GPP2 movie (`3gp*`/`3g2*` brands); its raw value and extension are `3gp`.
    case threeGP = "3gp"
    /// WebM movie (Matroska with the `webm` document type; VP8/VP9/AV1), as screen recorders and browsers save.
    case webm
    /// Matroska movie (EBML with the `matroska` document type).
    case mkv
    /// AVI movie (RIFF `AVI `, including OpenDML files over 1 GB).
    case avi
    /// MPEG transport stream with 188-byte packets (broadcast recordings, HLS segments); its raw value and extension are `ts`.
    case mpegTS = "ts"
    /// MPEG transport stream with 192-byte packets (AVCHD camcorders, Blu-ray: `.mts`/`.m2ts`).
    case m2ts

    /// Photo or video.
    public var kind: MediaKind {
        switch self {
        case .mp4, .mov, .m4v, .threeGP, .webm, .mkv, .avi, .mpegTS, .m2ts: .video
        default: .photo
        }
    }

    /// The format's name as people know it ("WebM", "MPEG-TS"), for messages.
    package var displayName: String {
        switch self {
        case .jpeg: "JPEG"
        case .webp: "WebP"
        case .raw: "camera raw"
        case .threeGP: "3GP"
        case .webm: "WebM"
        case .mkv: "Matroska"
        case .mpegTS: "MPEG-TS"
        case .m2ts: "M2TS"
        default: rawValue.uppercased()
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
