import Foundation

/// The one error type of AlbumKit: a stable ``Code``, a message that names the file or album and
/// says what to do, and the underlying system error when there is one.
///
/// Match on the code, never on the text:
/// ```swift
/// do { try await album.save(.file(url)) }
/// catch let error as AlbumError where error.code == .notMedia { … }
/// catch AlbumError.Code.accessDenied { … }
/// ```
public struct AlbumError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// A stable, machine-readable error code. The raw value appears in `--json` output.
    ///
    /// ```swift
    /// if error.code == .notEnoughSpace { showStorageAlert() }
    /// ```
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The stable string, e.g. `"notMedia"`.
        public let rawValue: String
        /// Creates a code from its stable string.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The raw value.
        public var description: String { rawValue }

        /// The file does not exist.
        public static let fileNotFound = Code(rawValue: "fileNotFound")
        /// The file exists but cannot be read (permissions, a directory, an I/O error).
        public static let fileUnreadable = Code(rawValue: "fileUnreadable")
        /// The content is not a photo or video AlbumKit knows.
        public static let notMedia = Code(rawValue: "notMedia")
        /// A known photo or video format whose structure is broken or cut short.
        public static let corruptMedia = Code(rawValue: "corruptMedia")
        /// The media kind is valid but the library cannot store it (e.g. a Live Photo in a folder library).
        public static let unsupportedMedia = Code(rawValue: "unsupportedMedia")
        /// The album title is empty, has control characters or is longer than 255 UTF-8 bytes.
        public static let invalidAlbumTitle = Code(rawValue: "invalidAlbumTitle")
        /// The title names more than one album (in a folder library: several folders); the message
        /// names them. Nothing was changed.
        public static let ambiguousAlbumTitle = Code(rawValue: "ambiguousAlbumTitle")
        /// No album with that title or identifier exists.
        public static let albumNotFound = Code(rawValue: "albumNotFound")
        /// The album exists but cannot be used (access level, or it vanished and could not be recreated).
        public static let albumUnavailable = Code(rawValue: "albumUnavailable")
        /// The operation would destroy data and was refused (e.g. deleting a non-empty folder album).
        public static let albumNotEmpty = Code(rawValue: "albumNotEmpty")
        /// The library does not exist (an unmounted disk, a removed folder).
        public static let libraryNotFound = Code(rawValue: "libraryNotFound")
        /// The library exists but cannot be written (read-only file system, permissions).
        public static let libraryUnwritable = Code(rawValue: "libraryUnwritable")
        /// The user or the system denied access to the photo library.
        public static let accessDenied = Code(rawValue: "accessDenied")
        /// The disk holding the library is full.
        public static let notEnoughSpace = Code(rawValue: "notEnoughSpace")
        /// The library's catalog is damaged or not an AlbumKit catalog; nothing in it was changed.
        public static let libraryCorrupt = Code(rawValue: "libraryCorrupt")
        /// The library is busy beyond the wait limit (another process holds it).
        public static let libraryBusy = Code(rawValue: "libraryBusy")
        /// An operating-system or photo-library failure not covered by a more specific code.
        public static let ioFailure = Code(rawValue: "ioFailure")
        /// The operation was cancelled.
        public static let cancelled = Code(rawValue: "cancelled")
        /// No asset with that identifier is in the library (or in the album named).
        public static let assetNotFound = Code(rawValue: "assetNotFound")
        /// The library cannot do this (e.g. exporting originals from Photos).
        public static let notSupported = Code(rawValue: "notSupported")
        /// An argument is malformed (a page cursor, a limit, an export folder that is a file).
        public static let invalidArgument = Code(rawValue: "invalidArgument")
    }

    /// The stable code.
    public let code: Code
    /// A sentence naming the file or album and the cause, and what to do.
    public let message: String
    /// The file involved, when there is one.
    public let file: String?
    /// The album title involved, when there is one.
    public let albumTitle: String?
    /// The system error behind this one (`POSIXError`, a SQLite result, `PHPhotosError`), if any.
    public let underlying: (any Error)?

    /// Creates an error.
    ///
    /// ```swift
    /// throw AlbumError(.notMedia, "notes.txt is not a photo or video", file: "notes.txt")
    /// ```
    public init(
        _ code: Code, _ message: String, file: String? = nil, albumTitle: String? = nil,
        underlying: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.file = file
        self.albumTitle = albumTitle
        self.underlying = underlying
    }

    /// The message, followed by the underlying error when there is one.
    public var description: String {
        guard let underlying else { return message }
        return "\(message) (\(underlying))"
    }

    /// The message, for `localizedDescription`.
    public var errorDescription: String? { description }

    /// A copy that names `file` (when the error did not already name one).
    func naming(file: String) -> AlbumError {
        guard self.file == nil else { return self }
        // A message that does not name the file (a full disk names the library's staging file)
        // starts with it: every line of a batch's errors says which file it is about.
        let name = (file as NSString).lastPathComponent
        let named =
            message.contains(file) || (!name.isEmpty && message.contains(name)) ? message : "\(file): \(message)"
        return AlbumError(code, named, file: file, albumTitle: albumTitle, underlying: underlying)
    }

    /// A copy whose message goes on with `sentence` (what else happened while handling it); the
    /// code, file, album and underlying error stay.
    package func appending(_ sentence: String) -> AlbumError {
        AlbumError(code, message + " " + sentence, file: file, albumTitle: albumTitle, underlying: underlying)
    }

    /// Wraps any error into an `AlbumError`, keeping AlbumErrors as they are.
    package static func wrap(_ error: any Error, file: String? = nil) -> AlbumError {
        if let error = error as? AlbumError { return file.map { error.naming(file: $0) } ?? error }
        if error is CancellationError { return AlbumError(.cancelled, "The save was cancelled.", file: file) }
        return AlbumError(.ioFailure, "Unexpected failure: \(error)", file: file, underlying: error)
    }
}

extension AlbumError.Code {
    /// Lets `catch AlbumError.Code.notMedia` match an error by its code.
    ///
    /// ```swift
    /// do { try await album.save(media) } catch AlbumError.Code.notEnoughSpace { … }
    /// ```
    public static func ~= (code: AlbumError.Code, error: any Error) -> Bool {
        (error as? AlbumError)?.code == code
    }
}
