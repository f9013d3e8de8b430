import AlbumKitMedia
import AlbumKitPreviews
import Foundation

/// Makes an asset's thumbnail or preview from the best source its original offers: a JPEG preview
/// stored inside the file when it is big enough (EXIF's, JPEG MPF's), else the picture itself,
/// decoded by libvips (shrinking while it decodes); a raw file without a big enough preview developed
/// by LibRaw; a video's poster frame, decoded by FFmpeg.
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
    /// `shownAs` names the file in messages when `file` (a library's own path) would not say which
    /// one the user knows. A video gives its poster frame (FFmpeg's libraries, loaded at run time); `clipThumbnail` is
    /// its `.THM` (a camera's JPEG of the clip, kept beside it), used when it is big enough and of
    /// the clip's shape, and whenever no frame can be decoded.
    ///
    /// - Throws: `.notSupported` without libvips (or, for a video, without FFmpeg's libraries; for a
    ///   raw file storing no preview, without LibRaw: the message names the packages); `.corruptMedia` naming `file` when the picture does not
    ///   decode; `.notMedia`; `.fileUnreadable`.
    package static func render(
        _ source: any ByteSource, maxPixelSize: Int, file: String, encoding: PreviewEncoding = .standard,
        clipThumbnail: [UInt8]? = nil, shownAs: String? = nil
    ) throws -> RenderedPreview? {
        let metadata: MediaMetadata
        do { metadata = try MediaInspector().inspect(source) } catch {
            throw AlbumError(
                error.kind == .unreadable ? .fileUnreadable : (error.kind == .notMedia ? .notMedia : .corruptMedia),
                "\(shownAs ?? file) cannot be shown: \(error.reason).", file: file)
        }
        let renderer = try renderer()
        do {
            if metadata.kind == .video {
                return try posterFrame(
                    of: source, metadata: metadata, renderer: renderer, maxPixelSize: maxPixelSize, file: file,
                    encoding: encoding, clipThumbnail: clipThumbnail, shownAs: shownAs)
            }
            if let stored = try storedPreview(in: source, metadata: metadata, atLeast: maxPixelSize) {
                // Orientation from the photo: a stored preview is kept as the sensor saw it.
                return try renderer.render(
                    .bytes(stored.jpeg), maxPixelSize: maxPixelSize, orientation: metadata.orientation ?? 1,
                    encoding: encoding)
            }
            if metadata.format == .raw || metadata.format == .dng {
                return try rawPicture(
                    of: source, metadata: metadata, renderer: renderer, maxPixelSize: maxPixelSize, file: file,
                    encoding: encoding, shownAs: shownAs)
            }
            if metadata.format == .bmp {
                // libvips reads no BMP itself (its ImageMagick loader is blocked): AlbumKit decodes it.
                guard source.size <= largestFileDecodedWhole else {
                    throw AlbumError(
                        .corruptMedia,
                        "\(shownAs ?? file) cannot be shown: a BMP of \(source.size) bytes is larger than any AlbumKit decodes.",
                        file: file)
                }
                let pixels = try BMPDecoder.decode(try readAll(source, file: file))
                return try renderer.render(pixels, maxPixelSize: maxPixelSize, encoding: encoding)
            }
            do {
                if let file = source as? FileByteSource {
                    return try renderer.render(
                        .descriptor(file.file.fd), maxPixelSize: maxPixelSize, encoding: encoding)
                }
                return try renderer.render(
                    .bytes(try readAll(source, file: file)), maxPixelSize: maxPixelSize, encoding: encoding)
            } catch let refused as PreviewError where refused.kind == .undecodable && metadata.format == .tiff {
                return try throughLibTIFF(
                    source, refused: refused, renderer: renderer, maxPixelSize: maxPixelSize, encoding: encoding,
                    file: file)
            } catch let refused as PreviewError
                where refused.kind == .undecodable && [.avif, .heif, .heic].contains(metadata.format)
            {
                // libvips 8.14 refuses some images libheif decodes (a camera's 10-bit grid): libheif's
                // own API. An image sequence (`.avifs`, `.heics`) is a track, which libheif 1.15 does
                // not read: FFmpeg reads it as a clip. One neither reads keeps libvips's reason.
                if source.size <= largestFileDecodedWhole,
                    // libheif's reason is dropped: the one kept is libvips's.
                    let pixels = try? HEIFDecoder.decode(try readAll(source, file: file))
                {
                    return try renderer.render(pixels, maxPixelSize: maxPixelSize, encoding: encoding)
                }
                do {
                    _ = try PreviewRenderer.loadVideoDecoder()
                    return try decodedFrame(
                        of: source, renderer: renderer, maxPixelSize: maxPixelSize, file: file, encoding: encoding)
                } catch {
                    throw refused
                }
            }
        } catch let error as PreviewError {
            throw AlbumError(
                error.kind == .decoderMissing ? .notSupported : .corruptMedia,
                "\(shownAs ?? file) cannot be shown: \(error.reason).", file: file)
        }
    }

    /// A TIFF libvips refused (separate planes, old-style JPEG, 12-bit or float samples), read
    /// through libtiff's RGBA interface; both reasons when libtiff cannot read it either.
    static func throughLibTIFF(
        _ source: any ByteSource, refused: PreviewError, renderer: PreviewRenderer, maxPixelSize: Int,
        encoding: PreviewEncoding, file: String
    ) throws -> RenderedPreview {
        // A TIFF larger than any picture read this way would hold keeps libvips's reason.
        guard source.size <= largestFileDecodedWhole else { throw refused }
        let bytes = try readAll(source, file: file)
        do {
            return try renderer.render(TIFFDecoder.decode(bytes), maxPixelSize: maxPixelSize, encoding: encoding)
        } catch {
            throw PreviewError(error.kind, "\(refused.reason); \(error.reason)")
        }
    }

    /// The poster frame of the video in `source`: its `.THM` when that is big enough and of its
    /// shape, else a frame decoded by FFmpeg, else (no FFmpeg, or no frame decodes) its `.THM`
    /// whatever its size.
    static func posterFrame(
        of source: any ByteSource, metadata: MediaMetadata, renderer: PreviewRenderer, maxPixelSize: Int,
        file: String, encoding: PreviewEncoding, clipThumbnail: [UInt8]?, shownAs: String?
    ) throws -> RenderedPreview {
        let thumbnail = clipThumbnail.flatMap { bytes -> (bytes: [UInt8], width: Int, height: Int)? in
            // A `.THM` that is no JPEG (damaged, or another file of that name) is passed over.
            guard let shown = try? MediaInspector().inspect(BufferByteSource(bytes: bytes)), shown.format == .jpeg,
                let width = shown.width, let height = shown.height, width > 0, height > 0
            else { return nil }
            return (bytes, width, height)
        }
        if let thumbnail, max(thumbnail.width, thumbnail.height) >= maxPixelSize,
            let width = metadata.width, let height = metadata.height, width > 0, height > 0
        {
            // Stored turned: the clip's displayed shape against the thumbnail's.
            let turned = (5...8).contains(metadata.orientation ?? 1)
            let shown = Double(turned ? height : width) / Double(turned ? width : height)
            if abs(shown - Double(thumbnail.width) / Double(thumbnail.height)) / shown < 0.02 {
                return try renderer.render(.bytes(thumbnail.bytes), maxPixelSize: maxPixelSize, encoding: encoding)
            }
        }
        do {
            do { _ = try PreviewRenderer.loadVideoDecoder() } catch {
                throw AlbumError(
                    .notSupported,
                    "\(shownAs ?? file) is a video: its poster frame needs FFmpeg's libraries (\(error.reason)); install \(PreviewRenderer.videoDecoderPackages).",
                    file: file)
            }
            return try decodedFrame(
                of: source, renderer: renderer, maxPixelSize: maxPixelSize, file: file, encoding: encoding)
        } catch {
            guard let thumbnail else { throw error }
            // The camera's own thumbnail of the clip, smaller than asked for, beats no picture.
            return try renderer.render(.bytes(thumbnail.bytes), maxPixelSize: maxPixelSize, encoding: encoding)
        }
    }

    /// A frame of the clip `source` decoded by FFmpeg: read through its descriptor when it is a
    /// file (FFmpeg seeks), else from its bytes.
    static func decodedFrame(
        of source: any ByteSource, renderer: PreviewRenderer, maxPixelSize: Int, file: String,
        encoding: PreviewEncoding
    ) throws -> RenderedPreview {
        if let file = source as? FileByteSource {
            return try renderer.posterFrame(.descriptor(file.file.fd), maxPixelSize: maxPixelSize, encoding: encoding)
        }
        return try renderer.posterFrame(
            .bytes(try readAll(source, file: file)), maxPixelSize: maxPixelSize, encoding: encoding)
    }

    /// The picture of a raw file (DNG or a camera's own) whose stored previews are all smaller than
    /// `maxPixelSize`: developed from its sensor data by LibRaw; else (no LibRaw, or its data does
    /// not develop) its largest stored preview whatever its size.
    static func rawPicture(
        of source: any ByteSource, metadata: MediaMetadata, renderer: PreviewRenderer, maxPixelSize: Int,
        file: String, encoding: PreviewEncoding, shownAs: String?
    ) throws -> RenderedPreview {
        let stored = try storedPreview(in: source, metadata: metadata, atLeast: 1)
        do {
            do { _ = try PreviewRenderer.loadRawDecoder() } catch {
                throw AlbumError(
                    .notSupported,
                    "\(shownAs ?? file) is a raw file without a stored preview of \(maxPixelSize) pixels: developing it needs LibRaw (\(error.reason)).",
                    file: file)
            }
            if let file = source as? FileByteSource {
                return try renderer.rawPicture(
                    .descriptor(file.file.fd), maxPixelSize: maxPixelSize, encoding: encoding)
            }
            // Refused before it is read into memory from a store (the decoder refuses it too).
            guard source.size <= UInt64(PreviewRenderer.largestRawFile) else {
                throw PreviewError(
                    .undecodable,
                    "it is \(source.size) bytes long, more than AlbumKit decodes as a raw file (\(PreviewRenderer.largestRawFile))"
                )
            }
            return try renderer.rawPicture(
                .bytes(try readAll(source, file: file)), maxPixelSize: maxPixelSize, encoding: encoding)
        } catch {
            guard let stored else { throw error }
            // The camera's own preview, smaller than asked for, beats no picture.
            return try renderer.render(
                .bytes(stored.jpeg), maxPixelSize: maxPixelSize, orientation: metadata.orientation ?? 1,
                encoding: encoding)
        }
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
            // An image of a JPEG's MPF larger than the photo is another picture, and would be shown
            // larger than the photo is. (A raw file's size may be its first IFD's, a small thumbnail.)
            guard metadata.format != .jpeg || max(candidate.width, candidate.height) <= max(width, height)
            else { return false }
            let shown = Double(turned ? height : width) / Double(turned ? width : height)
            let stored = Double(candidate.width) / Double(candidate.height)
            return abs(shown - stored) / shown < 0.02
        }.max { $0.width * $0.height < $1.width * $1.height }
    }

    /// The bytes of the `.THM` beside the video file at `path` (a camera's JPEG of the clip, its
    /// companion as ``CompanionGrouping`` finds it), or `nil` when there is none or it cannot be read
    /// (the poster frame is decoded then). A file over 16 MB is no camera's thumbnail.
    ///
    /// ```swift
    /// let thumbnail = PreviewPipeline.clipThumbnail(beside: "/Pictures/Trips/MVI_0001.MP4")
    /// ```
    package static func clipThumbnail(beside path: String) -> [UInt8]? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        let folder = String(path[..<slash])
        let name = String(path[path.index(after: slash)...])
        guard FolderNaming.kind(ofFileNamed: name) == .video else { return nil }
        // A folder or `.THM` that cannot be read gives no thumbnail: the frame is decoded instead.
        guard let names = try? FileSystem.names(inDirectoryAt: folder.isEmpty ? "/" : folder),
            let companion = CompanionGrouping(names).groups.first(where: { $0.primary == name })?.companions
                .first(where: { CompanionGrouping.isClipThumbnail($0.name) }),
            // (as above)
            let (file, version) = try? FileSystem.openWithoutFollowing(FileSystemPath(folder + "/" + companion.name)),
            version.size <= 16 << 20
        else { return nil }
        return try? readAll(FileByteSource(file: file, size: version.size), file: companion.name)  // as above
    }

    /// The largest BMP file read whole to be decoded: ``BMPDecoder/largestPicture`` pixels of 32
    /// bits, with room for headers and a palette.
    static let largestFileDecodedWhole: UInt64 = UInt64(BMPDecoder.largestPicture) * 4 + (1 << 20)

    /// The whole of `source` (an original held in memory or an object store).
    package static func readAll(_ source: any ByteSource, file: String) throws -> [UInt8] {
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
