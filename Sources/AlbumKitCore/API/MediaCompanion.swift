import Foundation

/// A file that belongs to a photo and is saved, listed, exported, deleted and restored with it:
/// a sidecar (`IMG_1.xmp` or `IMG_1.CR2.xmp` with ratings and edits from Lightroom, darktable or
/// digiKam; `IMG_1.AAE` with Apple's edits) or the camera raw of a RAW+JPEG pair (the JPEG is the
/// photo shown, the raw is kept beside it).
///
/// ```swift
/// let media = Media.file(jpegURL).with(companions: [.raw(cr2URL), .sidecar(xmpURL)])
/// try await album.save(media)
/// ```
public struct MediaCompanion: Sendable, Hashable {
    /// What the file is to its photo.
    ///
    /// ```swift
    /// if companion.role == .sidecar { print("edits and ratings:", companion.path) }
    /// ```
    public enum Role: String, Sendable, Hashable, CaseIterable {
        /// Metadata or edits written by another program (`.xmp`, `.AAE`), kept byte for byte.
        case sidecar
        /// The camera raw of a RAW+JPEG pair.
        case raw
    }

    /// What the file is to its photo.
    public var role: Role
    /// The file, by its path bytes (which need not be valid UTF-8).
    public var path: FileSystemPath

    /// A companion file of `role` at `path`.
    ///
    /// ```swift
    /// let xmp = MediaCompanion(role: .sidecar, path: FileSystemPath("/card/IMG_1.xmp"))
    /// ```
    public init(role: Role, path: FileSystemPath) {
        self.role = role
        self.path = path
    }

    /// A sidecar file (`.xmp`, `.AAE`).
    ///
    /// ```swift
    /// let xmp = MediaCompanion.sidecar(URL(fileURLWithPath: "/card/IMG_1.xmp"))
    /// ```
    public static func sidecar(_ url: URL) -> MediaCompanion {
        MediaCompanion(role: .sidecar, path: FileSystemPath(url.path))
    }

    /// The camera raw of a RAW+JPEG pair.
    ///
    /// ```swift
    /// let raw = MediaCompanion.raw(URL(fileURLWithPath: "/card/IMG_1.CR2"))
    /// ```
    public static func raw(_ url: URL) -> MediaCompanion { MediaCompanion(role: .raw, path: FileSystemPath(url.path)) }

    /// The file's name (last path component).
    public var fileName: String { path.lastComponent.description }
}
