import Foundation

/// A library that can read its originals' bytes (catalog, folders, shared, in memory; not Photos).
///
/// ```swift
/// if let reading = try await library.backend as? any OriginalReading {
///     let size = try await reading.readOriginal(ofAssetWithID: id) { $0.size }
/// }
/// ```
package protocol OriginalReading: LibraryBackend {
    /// Reads asset `id`'s original (a Live Photo's photo) with `body`, on a blocking thread, from
    /// where the library keeps it: a file, an object store (only the ranges `body` reads), memory.
    /// Returns `nil` when this library cannot read that asset's original.
    ///
    /// - Throws: `.assetNotFound`; what reading threw, as an `AlbumError` naming the asset's file.
    func readOriginal<T: Sendable>(
        ofAssetWithID id: String, _ body: @escaping @Sendable (any ByteSource) throws -> T
    ) async throws -> T?
}

extension OriginalReading {
    /// The EXIF thumbnail stored in the original, as stored; `nil` when it has none or the library
    /// cannot read its originals: the thumbnail of a kind that does not render previews.
    package func embeddedThumbnail(ofAssetWithID id: String) async throws -> AssetThumbnail? {
        let found = try await readOriginal(ofAssetWithID: id) { source -> EmbeddedThumbnail? in
            do { return try MediaInspector().embeddedThumbnail(source) } catch let error as MediaInspectionError {
                throw AlbumError(.fileUnreadable, "The original of asset \(id) cannot be read: \(error.reason).")
            }
        }
        guard let thumbnail = found ?? nil else { return nil }
        return AssetThumbnail(
            data: Data(thumbnail.jpeg), pixelWidth: thumbnail.width, pixelHeight: thumbnail.height, format: .jpeg,
            isEmbedded: true)
    }

    /// A photo's original, read whole; `nil` for a video or where originals cannot be read: the
    /// full-size image of a kind that does not render previews.
    package func originalImage(ofAssetWithID id: String) async throws -> AssetImage? {
        let found = try await readOriginal(ofAssetWithID: id) { source -> AssetImage? in
            // A file AlbumKit cannot read as a photo has no full-size image (nil, as for a video).
            guard let metadata = try? MediaInspector().inspect(source), metadata.kind == .photo else { return nil }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(Int(clamping: source.size))
            while UInt64(bytes.count) < source.size {
                let chunk = try source.read(at: UInt64(bytes.count), count: 1 << 20)
                guard !chunk.isEmpty else {
                    throw AlbumError(
                        .fileUnreadable,
                        "The original of asset \(id) ended after \(bytes.count) of its \(source.size) bytes.")
                }
                bytes += chunk
            }
            return AssetImage(
                data: Data(bytes), format: metadata.format, pixelWidth: metadata.width, pixelHeight: metadata.height,
                isOriginal: true)
        }
        return found ?? nil
    }
}
