import AlbumKitCore
import AlbumKitMedia
import AlbumKitPreviews

/// A folder library keeps its thumbnails in the desktop's shared cache (``FreedesktopThumbnailCache``):
/// a file manager's entry for the same file, still current, is used as it is, and the ones AlbumKit
/// makes are the file manager's too. Previews (2048 pixels, larger than the standard's sizes) are
/// made on each request and not kept.
extension FolderBackend: PreviewKeeping {
    package var keptSizes: [PreviewSize] { [.thumbnail, .largeThumbnail] }

    package func preview(ofAssetWithID id: String, size: PreviewSize) async throws -> (
        preview: RenderedPreview, wasKept: Bool
    )? {
        let environment = LibraryConfiguration.current.environment
        return try await Blocking.run {
            try self.withAssetFile(id) { file in
                let status = try FileSystem.fileStatus(of: file)
                let source = FileByteSource(file: file, size: UInt64(max(0, status.size)))
                let clipThumbnail = PreviewPipeline.clipThumbnail(beside: file.path)
                guard let cache = FreedesktopThumbnailCache(environment: environment),
                    let folder = FreedesktopThumbnailCache.folder(for: size),
                    let name = FreedesktopThumbnailCache.entryName(
                        forURI: FreedesktopThumbnailCache.uri(ofPath: file.path))
                else {
                    return try PreviewPipeline.render(
                        source, maxPixelSize: size.pixels, file: file.path, clipThumbnail: clipThumbnail
                    ).map { ($0, false) }
                }
                let uri = FreedesktopThumbnailCache.uri(ofPath: file.path)
                let modified = String(status.modified.seconds)
                let current = { (png: [UInt8]) -> Bool in
                    let text = FreedesktopThumbnailCache.textChunks(of: png)
                    return text["Thumb::URI"] == uri && text["Thumb::MTime"] == modified
                }
                let store = PreviewStore(root: cache.root)
                if FileSystem.fileStatus(atPath: cache.root) != nil,
                    let kept = store.read(folder + "/" + name, largestSide: size.pixels, check: current)
                {
                    return (kept, true)
                }
                let text = ["Thumb::URI": uri, "Thumb::MTime": modified, "Software": "AlbumKit"]
                let made: RenderedPreview?
                do {
                    made = try PreviewPipeline.render(
                        source, maxPixelSize: size.pixels, file: file.path, encoding: .png(text: text),
                        clipThumbnail: clipThumbnail)
                } catch let error as AlbumError where error.code == .corruptMedia {
                    // Recorded so file managers do not try it again until it changes, as far as it can
                    // be: without libvips, or in a cache that cannot be written, nothing is recorded.
                    let failure = FreedesktopThumbnailCache.failurePicture
                    // (libvips missing: nothing recorded)
                    if let marked = try? PreviewPipeline.renderer().render(
                        .bytes(failure), maxPixelSize: 1, encoding: .png(text: text))
                    {
                        // (as above)
                        try? cache.prepare()
                        try? store.keep(marked, at: FreedesktopThumbnailCache.failureFolder + "/" + name)  // (as above)
                    }
                    throw error
                }
                guard let made else { return nil }
                do {
                    try cache.prepare()
                    try store.keep(made, at: folder + "/" + name)
                } catch {
                    // A cache that cannot be written (a read-only home): the thumbnail is given, not kept.
                }
                return (made, false)
            }
        }
    }
}
