/// Why a picture could not be rendered: the decoder is missing, or the bytes do not decode.
///
/// The libraries turn it into an `AlbumError` naming the asset's file (`.notSupported` for a missing
/// decoder, `.corruptMedia` for a picture that does not decode).
///
/// ```swift
/// do { _ = try PreviewRenderer.load() }
/// catch let error where error.kind == .decoderMissing { print(error.reason) }   // "… install libvips42"
/// ```
package struct PreviewError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The class of problem.
    package enum Kind: String, Sendable, Hashable {
        /// The library that decodes pictures is not installed (or too old); ``PreviewError/reason``
        /// names the Debian package to install.
        case decoderMissing
        /// The bytes are not a picture the decoder can read (damaged, cut short, another format).
        case undecodable
        /// A size or count out of range.
        case invalidArgument
    }

    /// The class of problem.
    package var kind: Kind
    /// What went wrong, e.g. "libvips could not be loaded (…); install libvips42".
    package var reason: String

    /// An error of `kind` saying `reason`.
    ///
    /// ```swift
    /// throw PreviewError(.invalidArgument, "a thumbnail must be 1 pixel or more")
    /// ```
    package init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    /// The reason.
    package var description: String { reason }
}
