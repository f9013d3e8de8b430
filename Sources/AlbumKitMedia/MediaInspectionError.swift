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
    /// For a file that ends too early (a camera or a copy stopped mid-write): how many bytes are
    /// there and, where the container says, how many it needs at least; `nil` for other damage.
    public var cutShort: CutShort?

    /// How much of a file cut short is there.
    public struct CutShort: Sendable, Hashable {
        /// The bytes the file has.
        public var present: UInt64
        /// The bytes its container says it has at least (a box's, chunk's or segment's end), or
        /// `nil` where nothing says (a JPEG that ends before its image does).
        public var expected: UInt64?

        /// How much is there, and of how much.
        public init(present: UInt64, expected: UInt64?) {
            self.present = present
            self.expected = expected
        }
    }

    /// Creates an error.
    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    /// A file cut short after `present` bytes, whose container says it has at least `expected`.
    ///
    /// ```swift
    /// throw MediaInspectionError.cutShort("MP4 box 'mdat' at offset 40 runs past the end of the file", present: 2000, expected: 5390)
    /// ```
    public static func cutShort(_ reason: String, present: UInt64, expected: UInt64?) -> MediaInspectionError {
        var error = MediaInspectionError(.corrupt, reason)
        error.cutShort = CutShort(present: present, expected: expected.flatMap { $0 > present ? $0 : nil })
        return error
    }

    /// The reason.
    public var description: String { reason }
}
