/// Why a file could not be accepted as media.
///
/// ```swift
/// do { _ = try MediaInspector().inspect(source) }
/// catch let error as MediaInspectionError where error.kind == .notMedia { … }
/// ```
public struct MediaInspectionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The class of problem.
    public enum Kind: String, Sendable, Hashable {
        /// Not a photo or video AlbumKit knows (text, PDF, zip, empty, random bytes).
        case notMedia
        /// A known format whose structure is broken or cut short.
        case corrupt
        /// The bytes could not be read.
        case unreadable
    }

    /// The class of problem.
    public var kind: Kind
    /// A short reason, e.g. "JPEG segment at offset 20 runs past the end of the file".
    public var reason: String

    /// Creates an error.
    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}
