/// How a rendered picture is encoded.
///
/// ```swift
/// let jpeg = PreviewEncoding.jpeg(quality: 82)
/// let cacheEntry = PreviewEncoding.png(text: ["Thumb::URI": uri, "Thumb::MTime": "1700000000"])
/// ```
package enum PreviewEncoding: Sendable, Hashable {
    /// A baseline JPEG of `quality` (1–100), no metadata (the pixels are sRGB, JPEG's default).
    case jpeg(quality: Int)
    /// A PNG with `text` as its text chunks (freedesktop's thumbnail cache keeps `Thumb::URI` and
    /// `Thumb::MTime` there), no other metadata.
    case png(text: [String: String])

    /// The quality AlbumKit's thumbnails and previews are encoded at.
    package static let standard = PreviewEncoding.jpeg(quality: 82)
}
