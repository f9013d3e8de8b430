import AlbumKitMedia
import AlbumKitPreviews
import Foundation

/// Makes an asset's thumbnail or preview from the best source its original offers: a JPEG preview
/// stored inside the file when it is big enough (EXIF's, JPEG MPF's), else the picture itself,
/// decoded by libvips (shrinking while it decodes); a video's poster frame, decoded by FFmpeg.
/// Oriented, in sRGB, never enlarged.
///
/// ```swift
/// let thumbnail = try PreviewPipeline.render(FileByteSource(file: file, size: size), maxPixelSize: 256, file: path)
/// ```
package enum PreviewPipeline {
    /// The renderer, or `.notSupported` naming the package to install.
    ///
    /// ```swift
    /// let renderer = try PreviewPipeline.renderer()
    /// ```
    package static func renderer() throws -> PreviewRenderer {
        do { return try PreviewRenderer.load() } catch {
            throw AlbumError(
                .notSupported,
                "Thumbnails and previews need libvips (\(error.reason)).")
        }
    }

    /// The picture in `source` (an asset's original, `file` naming it in errors) fitted inside
    /// `maxPixelSize` × `maxPixelSize`, as JPEG unless `encoding` says otherwise.
    ///
    /// ```swift
    /// let preview = try PreviewPipeline.render(source, maxPixelSize: 2048, file: "IMG_0001.JPG")
    /// ```
    /// A video gives its poster frame (FFmpeg's libraries, loaded at run time).
    ///
    /// - Throws: `.notSupported` without libvips (or, for a video, without FFmpeg's libraries: the
    ///   message names the packages); `.corruptMedia` naming `file` when the picture does not
    ///   decode; `.notMedia`; `.fileUnreadable`.
    package static func render(
        _ source: any ByteSource, maxPixelSize: Int, file: String, encoding: PreviewEncoding = .standard
    ) throws -> RenderedPreview? {
        let metadata: MediaMetadata
        do { metadata = try MediaInspector().inspect(source) } catch {
            throw AlbumError(
                error.kind == .unreadable ? .fileUnreadable : (error.kind == .notMedia ? .notMedia : .corruptMedia),
                "\(file) cannot be shown: \(error.reason).", file: file)
        }
        let renderer = try renderer()
        do {
            if metadata.kind == .video {
                return try posterFrame(
                    of: source, renderer: renderer, maxPixelSize: maxPixelSize, file: file,
                    encoding: encoding)
            }
            if let stored = try storedPreview(in: source, metadata: metadata, atLeast: maxPixelSize) {
                // Orientation from the photo: a stored preview is kept as the sensor saw it.
                return try renderer.render(
                    .bytes(stored.jpeg), maxPixelSize: maxPixelSize, orientation: metadata.orientation ?? 1,
                    encoding: encoding)
            }
            if metadata.format == .raw || metadata.format == .dng {
                // Raw sensor data is not decoded (no LibRaw yet): the largest stored preview, smaller
                // than asked for, beats a mosaic read as a TIFF.
                guard let stored = try storedPreview(in: source, metadata: metadata, atLeast: 1) else {
                    throw AlbumError(
                        .notSupported,
                        "\(file) is a raw file without a stored preview, and AlbumKit does not decode raw sensor data yet.",
                        file: file)
                }
                return try renderer.render(
                    .bytes(stored.jpeg), maxPixelSize: maxPixelSize, orientation: metadata.orientation ?? 1,
                    encoding: encoding)
            }
            if let file = source as? FileByteSource {
                return try renderer.render(.descriptor(file.file.fd), maxPixelSize: maxPixelSize, encoding: encoding)
            }
            return try renderer.render(
                .bytes(try readAll(source, file: file)), maxPixelSize: maxPixelSize, encoding: encoding)
        } catch let error as PreviewError {
            throw AlbumError(
                error.kind == .decoderMissing ? .notSupported : .corruptMedia,
                "\(file) cannot be shown: \(error.reason).", file: file)
        }
    }

    /// The poster frame of the video in `source`, decoded by FFmpeg.
    static func posterFrame(
        of source: any ByteSource, renderer: PreviewRenderer, maxPixelSize: Int, file: String,
        encoding: PreviewEncoding
    ) throws -> RenderedPreview {
        do { _ = try PreviewRenderer.loadVideoDecoder() } catch {
            throw AlbumError(
                .notSupported,
                "\(file) is a video: its poster frame needs FFmpeg's libraries (\(error.reason)); install \(PreviewRenderer.videoDecoderPackages).",
                file: file)
        }
        if let file = source as? FileByteSource {
            return try renderer.posterFrame(.descriptor(file.file.fd), maxPixelSize: maxPixelSize, encoding: encoding)
        }
        return try renderer.posterFrame(
            .bytes(try readAll(source, file: file)), maxPixelSize: maxPixelSize, encoding: encoding)
    }

    /// The largest JPEG preview stored in the photo whose longest side is at least `side` and whose
    /// shape is the photo's (a stored thumbnail of another aspect ratio has black bars); `nil` when
    /// none is.
    static func storedPreview(in source: any ByteSource, metadata: MediaMetadata, atLeast side: Int) throws
        -> EmbeddedThumbnail?
    {
        guard
            metadata.format == .jpeg || metadata.format == .tiff || metadata.format == .dng
                || metadata.format == .raw
        else { return nil }
        let candidates: [EmbeddedThumbnail]
        do { candidates = try MediaInspector().embeddedPreviews(source) } catch {
            throw AlbumError(.fileUnreadable, "The photo cannot be read: \(error.reason).")
        }
        return candidates.filter { candidate in
            guard max(candidate.width, candidate.height) >= side else { return false }
            guard let width = metadata.width, let height = metadata.height, width > 0, height > 0 else { return false }
            // Stored as the sensor saw it: orientations 5–8 swap the displayed sides.
            let turned = (5...8).contains(metadata.orientation ?? 1)
            let shown = Double(turned ? height : width) / Double(turned ? width : height)
            let stored = Double(candidate.width) / Double(candidate.height)
            return abs(shown - stored) / shown < 0.02
        }.max { $0.width * $0.height < $1.width * $1.height }
    }

    /// The whole of `source` (an original held in memory or an object store).
    static func readAll(_ source: any ByteSource, file: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(clamping: source.size))
        while UInt64(bytes.count) < source.size {
            let chunk = try source.read(at: UInt64(bytes.count), count: 1 << 20)
            guard !chunk.isEmpty else {
                throw AlbumError(
                    .fileUnreadable, "\(file) ended after \(bytes.count) of its \(source.size) bytes.", file: file)
            }
            bytes += chunk
        }
        return bytes
    }
}
