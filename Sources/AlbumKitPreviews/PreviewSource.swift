/// Where a picture to render is read from.
///
/// ```swift
/// let source = PreviewSource.descriptor(descriptor.rawValue)   // a file the caller opened
/// let thumbnail = PreviewSource.bytes(embedded.jpeg)           // a preview found inside a file
/// ```
package enum PreviewSource: Sendable, Hashable {
    /// A file the caller opened for reading (through the platform layer), read from where it is and
    /// left open; the decoder never sees its name.
    case descriptor(Int32)
    /// An encoded picture in memory (a JPEG preview taken out of a photo or a video's `.THM`).
    case bytes([UInt8])
}
