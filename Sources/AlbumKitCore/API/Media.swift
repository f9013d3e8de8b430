import Foundation

/// A photo or video to save. The kind (photo or video) and format come from the content, never the name.
///
/// ```swift
/// try await album.save(.file(URL(fileURLWithPath: "IMG_0001.HEIC")))
/// try await album.save(.data(bytes, filename: "IMG_0002.JPG"))
/// ```
public enum Media: Sendable {
    /// A photo or video file, copied byte for byte (metadata kept).
    case file(URL)
    /// A photo or video file named by its path bytes, which need not be valid UTF-8.
    case path(FileSystemPath)
    /// Bytes of a photo or video already in memory; `filename` becomes the original file name.
    case data(Data, filename: String? = nil)
    /// A Live Photo: a still photo and its paired video, saved as one asset (PhotoKit only).
    case livePhoto(photo: URL, pairedVideo: URL)

    /// The name used in messages and as the original file name.
    package var displayName: String {
        switch self {
        case .file(let url): url.path
        case .path(let path): path.description
        case .data(_, let filename): filename ?? "(data)"
        case .livePhoto(let photo, _): photo.path
        }
    }

    /// The original file name to record (last path component), if known.
    package var originalFilename: String? {
        switch self {
        case .file(let url): url.lastPathComponent
        case .path(let path): path.lastComponent.description
        case .data(_, let filename): filename.map { ($0 as NSString).lastPathComponent }
        case .livePhoto(let photo, _): photo.lastPathComponent
        }
    }

    /// The file as a URL (Apple file systems name files in UTF-8, so a path's bytes make one).
    package var fileURL: URL? {
        switch self {
        case .file(let url): url
        case .path(let path): URL(fileURLWithPath: path.description)
        case .data, .livePhoto: nil
        }
    }
}
