import AlbumKitCore
import AlbumKitMedia
import AlbumKitPreviews

/// The catalog keeps the thumbnails and previews it makes inside the library, under
/// `derivatives/<size>/<first two hex digits>/<SHA-256 of the original>.jpg`: keyed by content, so two
/// assets of the same bytes share them and a re-saved photo finds its own. A cache: `verify` never
/// counts them, and one missing, damaged or forged into something that does not decode is made again.
extension CatalogBackend: PreviewKeeping {
    /// Where the derivative of the original with `sha256` at `size` is kept, relative to the library;
    /// `nil` for a digest that is not 64 lowercase hexadecimal digits (the index is not believed).
    static func derivativePath(sha256: String, size: PreviewSize) -> String? {
        KeptDerivative.name(sha256: sha256, pixels: size.pixels)
    }

    package var keptSizes: [PreviewSize] { PreviewSize.allCases }

    package func preview(ofAssetWithID id: String, size: PreviewSize) async throws -> (
        preview: RenderedPreview, wasKept: Bool
    )? {
        try await Blocking.run {
            let row = try self.withIndex("find the asset") { connection in
                try connection.index!.db.row(
                    "SELECT path, sha256, kind, original_name FROM asset WHERE id = ? AND state = 'ready'", [.text(id)]
                ).map { ($0.text(0), $0.text(1), $0.text(2), $0.text(3)) }
            }
            guard let row, let path = row.0 else {
                throw AlbumError(.assetNotFound, "There is no asset with the identifier \(id) in \(self.root.path).")
            }
            let store = PreviewStore(root: self.root.path)
            let kept = row.1.flatMap { Self.derivativePath(sha256: $0, size: size) }
            if let kept, let preview = store.read(kept, largestSide: size.pixels) { return (preview, true) }
            let made: RenderedPreview?
            do {
                let clipThumbnail = row.2 == "video" ? try self.clipThumbnail(ofAssetWithID: id) : nil
                let (file, fileSize) = try self.gate.openFileForReading(path)
                defer { FileSystem.close(file) }
                made = try PreviewPipeline.render(
                    FileByteSource(file: file, size: fileSize), maxPixelSize: size.pixels,
                    file: self.root.path + "/" + path, clipThumbnail: clipThumbnail,
                    shownAs: Self.described(path: self.root.path + "/" + path, originalName: row.3))
            } catch {
                throw AlbumError.wrap(error, file: self.root.path + "/" + path)
            }
            guard let made else { return nil }
            if let kept {
                // A library that cannot be written still shows its photos: the preview is given, not kept.
                try? store.keep(made, at: kept)
            }
            return (made, false)
        }
    }

    /// How an asset's file is named in an error: by the name the user gave it, with where the library
    /// keeps it (`IMG_0001.JPG (/…/originals/3c/….jpg)`), or by that path alone.
    static func described(path: String, originalName: String?) -> String {
        guard let originalName, !originalName.isEmpty else { return path }
        return "\(originalName) (\(path))"
    }

    /// The bytes of the `.THM` kept with video `id` (a camera's JPEG of the clip, saved as its
    /// companion), or `nil` when it has none or it cannot be read (the poster frame is decoded then).
    func clipThumbnail(ofAssetWithID id: String) throws -> [UInt8]? {
        let paths = try withIndex("find the asset's companions") { connection in
            try connection.index!.db.rows("SELECT path FROM companion_file WHERE asset_id = ?", [.text(id)])
                .compactMap { $0.text(0) }
        }
        guard let path = paths.sorted().first(where: { CompanionGrouping.isClipThumbnail($0) }),
            let (file, size) = try? gate.openFileForReading(path)  // unreadable: the frame is decoded instead
        else { return nil }
        defer { FileSystem.close(file) }
        // A camera's thumbnail is a few kilobytes: anything over 16 MB is no thumbnail.
        guard size <= 16 << 20 else { return nil }
        return try? PreviewPipeline.readAll(FileByteSource(file: file, size: size), file: path)  // as above
    }
}
