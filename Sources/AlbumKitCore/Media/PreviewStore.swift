import AlbumKitMedia
import AlbumKitPreviews

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Thumbnails and previews kept in a folder (a catalog's `derivatives/`, the desktop's thumbnail
/// cache): read back only when they decode whole, written atomically (staged unnamed, then linked
/// under their name) with the folder's private modes, and replaced — through the ``RemovalGate``,
/// beneath the folder only — when the one there is damaged. A cache: a missing or bad entry is made
/// again, never an error.
///
/// ```swift
/// let store = PreviewStore(root: "/data/Photos.albumlibrary")
/// if let kept = store.read("derivatives/256/3f/3f9a….jpg", largestSide: 256) { … }
/// try store.keep(preview, at: "derivatives/256/3f/3f9a….jpg")
/// ```
package struct PreviewStore: Sendable {
    /// The folder everything is kept beneath.
    package let gate: RemovalGate
    /// The pictures already seen decode whole (read back again, they are not decoded again).
    let decoded: DecodedDerivatives

    /// Previews kept beneath the folder `root`, which must exist.
    package init(root: String, decoded: DecodedDerivatives = .shared) {
        gate = RemovalGate(root: root)
        self.decoded = decoded
    }

    /// The largest kept file read back (a 2048-pixel preview is well under this).
    static let largestFile: UInt64 = 16 << 20

    /// The picture kept at `relative` when it is a JPEG or PNG that decodes whole (decoded the first
    /// time these bytes are read, ``DecodedDerivatives``) and is at most `largestSide` on its longest side; `nil` when it is missing, damaged, forged into something
    /// else, or cannot be read. `check`, when given, must also accept the file's bytes (freedesktop's
    /// `Thumb::URI` and `Thumb::MTime`).
    package func read(_ relative: String, largestSide: Int, check: (([UInt8]) -> Bool)? = nil) -> RenderedPreview? {
        // Missing or not a regular file: made again.
        guard let (file, size) = try? gate.openFileForReading(relative) else { return nil }
        defer { FileSystem.close(file) }
        // Unreadable, too large or changing under us: made again.
        guard size > 0, size <= Self.largestFile, let bytes = try? FileSystem.readAll(file, from: 0, size: size),
            UInt64(bytes.count) == size
        else { return nil }
        guard check?(bytes) ?? true else { return nil }
        return decoded.believed(bytes, largestSide: largestSide)
    }

    /// Keeps `preview` at `relative`, making the folders on the way (private to the user, or shared
    /// with the group as the library is); a file already there (damaged, or made by another process
    /// meanwhile) is replaced through the gate.
    ///
    /// - Throws: `SystemError` when the folder cannot be written (a read-only library: the
    ///   preview is still given, only not kept).
    package func keep(_ preview: RenderedPreview, at relative: String) throws(SystemError) {
        guard var parts = RemovalGate.components(of: relative), parts.count >= 2 else {
            throw SystemError("keep", path: gate.root + "/" + relative, errno: EINVAL)
        }
        let name = parts.removeLast()
        let (folder, _) = try gate.makeFolder(parts.joined(separator: "/"))
        defer { FileSystem.close(folder) }
        let staged = try FileSystem.stage(in: folder, as: StagingName(kind: "partial"))
        defer { FileSystem.abandon(staged) }
        try FileSystem.write(staged.descriptor, preview.bytes)
        do {
            try FileSystem.publish(staged, into: folder, as: name)
        } catch  where error.errno == EEXIST {
            // The one there is not a picture that decodes (it would have been read back): replaced.
            _ = try RemovalGate.removeFile(named: name, in: folder)
            try FileSystem.publish(staged, into: folder, as: name)
        }
    }
}
