import Foundation

/// How ``Media`` encodes an image it is given in memory (`.image(UIImage)`, `.image(NSImage)`):
/// HEIC or JPEG, at a quality, with the image's orientation and the metadata given kept.
///
/// ```swift
/// try await album.save(.image(photo, encoding: .jpeg))
/// try await album.save(.image(photo, encoding: ImageEncoding(format: .heic, quality: 0.8)))
/// ```
public struct ImageEncoding: Sendable, Hashable {
    /// The file format written.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// HEIC (HEVC in HEIF): about half the size of a JPEG of the same quality. Where the device
        /// cannot encode HEVC, the image is written as JPEG instead.
        case heic
        /// JPEG: readable everywhere.
        case jpeg

        /// The file name extension: `heic` or `jpg`.
        public var fileExtension: String { self == .heic ? "heic" : "jpg" }
    }

    /// The format asked for.
    public var format: Format
    /// The quality from 0 (smallest) to 1 (best); values outside are brought within.
    public var quality: Double

    /// An encoding in `format` at `quality`.
    ///
    /// ```swift
    /// let encoding = ImageEncoding(format: .jpeg, quality: 0.85)
    /// ```
    public init(format: Format, quality: Double = 0.9) {
        self.format = format
        self.quality = min(1, max(0, quality))
    }

    /// HEIC at quality 0.9 (the default: what the camera writes).
    public static let heic = ImageEncoding(format: .heic)
    /// JPEG at quality 0.9.
    public static let jpeg = ImageEncoding(format: .jpeg)

    /// `name` with the extension of `format` in place of its own (`Drawing.png` → `Drawing.heic`):
    /// the name a library shows should say what the bytes are.
    package static func fileName(_ name: String?, for format: Format) -> String {
        let base = name.map { ($0 as NSString).deletingPathExtension } ?? ""
        return (base.isEmpty ? "Image" : base) + "." + format.fileExtension
    }
}
