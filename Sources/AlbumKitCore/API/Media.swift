import Foundation

/// A photo or video to save, and how to describe it in the library. The kind (photo or video) and
/// format come from the content, never the name.
///
/// ```swift
/// try await album.save(.file(URL(fileURLWithPath: "IMG_0001.HEIC")))
/// try await album.save(.data(bytes, filename: "IMG_0002.JPG"))
/// try await album.save(.file(clipURL).with(creationDate: takenAt, location: GeoLocation(latitude: 46.2, longitude: 6.1)))
/// ```
public struct Media: Sendable {
    /// Where the bytes come from.
    ///
    /// ```swift
    /// if case .file(let url) = media.source { print(url.path) }
    /// ```
    public enum Source: Sendable {
        /// A photo or video file, copied byte for byte (metadata kept).
        case file(URL)
        /// A photo or video file named by its path bytes, which need not be valid UTF-8.
        case path(FileSystemPath)
        /// Bytes of a photo or video already in memory; `filename` becomes the original file name.
        case data(Data, filename: String?)
        /// A Live Photo: a still photo and its paired video, saved as one asset (Photos only).
        case livePhoto(photo: URL, pairedVideo: URL)
    }

    /// Where the bytes come from.
    public var source: Source
    /// The date the library shows for the asset instead of the one it reads from the file (the
    /// capture date); `nil` keeps the file's. Photos and the in-memory library keep it.
    public var creationDate: Date?
    /// Where the photo or video was taken, instead of the GPS position in the file; `nil` keeps the
    /// file's. Photos and the in-memory library keep it.
    public var location: GeoLocation?
    /// Whether the asset is marked as a favourite (Photos' heart). Photos and the in-memory library
    /// keep it.
    public var isFavorite = false
    /// Whether a file the app owns may be moved into the library instead of copied (Photos:
    /// `PHAssetResourceCreationOptions.shouldMoveFile`; a large video then needs no second copy on
    /// disk). The file is gone after a successful save and untouched after a failed one. Libraries
    /// that cannot move a file copy it and leave it where it is; data in memory is always copied.
    public var movesFile = false
    /// Files saved with the photo as part of the same asset: its sidecars (`.xmp`, `.AAE`) and the
    /// raw of a RAW+JPEG pair (``MediaCompanion``). Catalog and folder libraries keep them (a folder
    /// library beside the photo, named after it); a library that cannot keep one saves the photo
    /// and names it in ``SavedAsset/companionsLeftOut``. `album import` finds them on a card.
    public var companions: [MediaCompanion] = []
    /// Why this media cannot be saved, found while it was made (an image that could not be
    /// encoded): the save reports it for this item before anything is written.
    package var preparationError: AlbumError?
    /// The file's status as the program read it when the file was named or found in a folder
    /// (`album save` asks whether each name is a folder; a walk reads each file's): recognition's
    /// probe uses it instead of asking again, and a small file's copy takes it as the version the
    /// file had before it was opened — the file read whole is saved when its status after the read
    /// is still this one (else it is read again as any file, from its status then).
    package var namedStatus: FileStatus?

    /// Media from `source`, described only by its own content.
    public init(_ source: Source) { self.source = source }

    /// A photo or video file, copied byte for byte (metadata kept).
    ///
    /// ```swift
    /// try await album.save(.file(URL(fileURLWithPath: "IMG_0001.HEIC")))
    /// ```
    public static func file(_ url: URL) -> Media { Media(.file(url)) }

    /// A photo or video file named by its path bytes, which need not be valid UTF-8.
    ///
    /// ```swift
    /// try await album.save(.path(FileSystemPath(bytes)))
    /// ```
    public static func path(_ path: FileSystemPath) -> Media { Media(.path(path)) }

    /// Bytes of a photo or video already in memory; `filename` becomes the original file name.
    ///
    /// ```swift
    /// try await album.save(.data(jpegBytes, filename: "IMG_0001.JPG"))
    /// ```
    public static func data(_ data: Data, filename: String? = nil) -> Media { Media(.data(data, filename: filename)) }

    /// A Live Photo: a still photo and its paired video, saved as one asset (Photos only).
    ///
    /// ```swift
    /// try await album.save(.livePhoto(photo: heicURL, pairedVideo: movURL))
    /// ```
    public static func livePhoto(photo: URL, pairedVideo: URL) -> Media {
        Media(.livePhoto(photo: photo, pairedVideo: pairedVideo))
    }

    /// A copy saved with `companions` (its sidecars, the raw of a RAW+JPEG pair).
    ///
    /// ```swift
    /// let media = Media.file(jpegURL).with(companions: [.raw(cr2URL), .sidecar(xmpURL)])
    /// ```
    public func with(companions: [MediaCompanion]) -> Media {
        var copy = self
        copy.companions = companions
        return copy
    }

    /// A copy with the given descriptions; each `nil` argument leaves that description as it is.
    ///
    /// ```swift
    /// let media = Media.file(videoURL).with(creationDate: recordedAt, isFavorite: true, movesFile: true)
    /// ```
    public func with(
        creationDate: Date? = nil, location: GeoLocation? = nil, isFavorite: Bool? = nil, movesFile: Bool? = nil
    ) -> Media {
        var copy = self
        if let creationDate { copy.creationDate = creationDate }
        if let location { copy.location = location }
        if let isFavorite { copy.isFavorite = isFavorite }
        if let movesFile { copy.movesFile = movesFile }
        return copy
    }

    /// `metadata` (the file's own) with the creation date and location given in place of the
    /// file's: what a library records for this save.
    package func described(_ metadata: MediaMetadata) -> MediaMetadata {
        var metadata = metadata
        if let creationDate {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime]
            metadata.captureDate = formatter.string(from: creationDate)
        }
        if let location {
            metadata.latitude = location.latitude
            metadata.longitude = location.longitude
            metadata.altitude = location.altitude
        }
        return metadata
    }

    /// The name used in messages and as the original file name.
    package var displayName: String {
        switch source {
        case .file(let url): url.path
        case .path(let path): path.description
        case .data(_, let filename): filename ?? "(data)"
        case .livePhoto(let photo, _): photo.path
        }
    }

    /// The original file name to record (last path component), if known.
    package var originalFilename: String? {
        switch source {
        case .file(let url): url.lastPathComponent
        case .path(let path): path.lastComponent.description
        case .data(_, let filename): filename.map { ($0 as NSString).lastPathComponent }
        case .livePhoto(let photo, _): photo.lastPathComponent
        }
    }

    /// The file as a URL (Apple file systems name files in UTF-8, so a path's bytes make one).
    package var fileURL: URL? {
        switch source {
        case .file(let url): url
        case .path(let path): URL(fileURLWithPath: path.description)
        case .data, .livePhoto: nil
        }
    }
}
