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
    /// Bytes of a photo or video already in memory; `filename` becomes the original file name.
    case data(Data, filename: String? = nil)
    /// A Live Photo: a still photo and its paired video, saved as one asset (PhotoKit only).
    case livePhoto(photo: URL, pairedVideo: URL)

    /// The name used in messages and as the original file name.
    var displayName: String {
        switch self {
        case .file(let url): url.path
        case .data(_, let filename): filename ?? "(data)"
        case .livePhoto(let photo, _): photo.path
        }
    }

    /// The original file name to record (last path component), if known.
    package var originalFilename: String? {
        switch self {
        case .file(let url): url.lastPathComponent
        case .data(_, let filename): filename.map { ($0 as NSString).lastPathComponent }
        case .livePhoto(let photo, _): photo.lastPathComponent
        }
    }
}
