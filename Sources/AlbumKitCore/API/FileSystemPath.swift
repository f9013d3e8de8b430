/// A file path as the bytes the operating system uses. Unlike `String` and `URL`, it keeps names
/// that are not valid UTF-8 (`bad\xff\xfename.jpg`, from old cameras or other locales) intact.
///
/// ```swift
/// let path = FileSystemPath(bytes: Array("bad".utf8) + [0xFF, 0xFE] + Array("name.jpg".utf8))
/// try await album.save(.path(path))
/// ```
public struct FileSystemPath: Sendable, Hashable, CustomStringConvertible {
    /// The path's bytes, without a terminating NUL.
    public let bytes: [UInt8]

    /// A path from its bytes (a NUL ends it).
    public init(bytes: some Sequence<UInt8>) {
        self.bytes = Array(bytes.prefix { $0 != 0 })
    }

    /// A path from a string (its UTF-8 bytes).
    public init(_ path: String) {
        self.init(bytes: path.utf8)
    }

    /// The path for messages: invalid UTF-8 sequences shown as U+FFFD.
    public var description: String { String(decoding: bytes, as: UTF8.self) }

    /// The last component, for messages and as an original file name.
    public var lastComponent: FileSystemPath {
        FileSystemPath(bytes: bytes.split(separator: UInt8(ascii: "/")).last ?? [])
    }

    /// Calls `body` with the path as a NUL-terminated C string.
    func withCString<T>(_ body: (UnsafePointer<CChar>) throws -> T) rethrows -> T {
        try (bytes + [0]).withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }
}
