import AlbumKitPreviews
import Foundation

extension PhotoLibrary {
    /// A contact sheet: the thumbnails of `assets` (photos and videos' poster frames) in rows of
    /// `across`, each in a `cellSize` square with its file's name and the date it was taken below it,
    /// as one JPEG, or one PDF page showing that JPEG when `pdf` is true. An asset whose thumbnail
    /// cannot be made is left out and reported in ``ContactSheet/failures``.
    ///
    /// ```swift
    /// let sheet = try await library.contactSheet(of: try await library.assets(inAlbumTitled: "Trips"))
    /// try Data(sheet.bytes).write(to: URL(fileURLWithPath: "sheet.jpg"))
    /// ```
    /// - Throws: `.invalidArgument` for a cell outside 16…2048 pixels, `across` outside 1…100, no
    ///   asset that could be pictured, or a sheet taller than a JPEG can be (65 500 pixels);
    ///   `.notSupported` without libvips.
    package func contactSheet(of assets: [AssetInfo], cellSize: Int = 256, across: Int = 6, pdf: Bool = false)
        async throws -> ContactSheet
    {
        guard (16...2048).contains(cellSize), (1...100).contains(across) else {
            throw AlbumError(
                .invalidArgument,
                "A contact sheet's cells are 16 to 2048 pixels and 1 to 100 across, not \(cellSize) and \(across).")
        }
        let gap = max(8, cellSize / 16)
        // A caption of two lines at the font's size, and the gap: what a row needs below its picture.
        let rows = (assets.count + across - 1) / max(1, across)
        guard rows * (cellSize + 3 * gap + 40) < 65_500 else {
            throw AlbumError(
                .invalidArgument,
                "\(assets.count) pictures \(across) across make a sheet taller than a JPEG can be: give more across or fewer pictures."
            )
        }
        _ = try PreviewPipeline.renderer()
        var pictures: [RenderedPreview] = []
        var captions: [String] = []
        var failures: [ContactSheet.Failure] = []
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        for asset in assets {
            let name = asset.originalFilename ?? asset.fileURL?.lastPathComponent ?? asset.id
            do {
                guard let thumbnail = try await thumbnail(forAssetWithID: asset.id, maxPixelSize: cellSize) else {
                    failures.append(.init(assetID: asset.id, file: name, reason: "the library gives no picture of it"))
                    continue
                }
                pictures.append(
                    RenderedPreview(
                        bytes: Array(thumbnail.data), pixelWidth: thumbnail.pixelWidth,
                        pixelHeight: thumbnail.pixelHeight, format: thumbnail.format))
                captions.append(name + "\n" + (asset.capturedAt.map(formatter.string(from:)) ?? "no date"))
            } catch {
                failures.append(.init(assetID: asset.id, file: name, reason: "\(error)"))
            }
        }
        guard !pictures.isEmpty else {
            throw AlbumError(
                .invalidArgument,
                assets.isEmpty
                    ? "There is nothing to put on a contact sheet." : "None of the \(assets.count) could be pictured.")
        }
        let font = "sans \(max(6, cellSize / 24))"
        let (madePictures, madeCaptions) = (pictures, captions)
        let sheet = try await Blocking.run {
            do {
                return try PreviewPipeline.renderer().contactSheet(
                    madePictures, cellSize: cellSize, across: across, gap: gap, captions: madeCaptions, font: font)
            } catch let error as PreviewError {
                throw AlbumError(
                    error.kind == .decoderMissing ? .notSupported : .corruptMedia,
                    "The contact sheet cannot be made: \(error.reason).")
            }
        }
        return ContactSheet(
            bytes: pdf ? PDFPage.showing(sheet) : sheet.bytes, pixelWidth: sheet.pixelWidth,
            pixelHeight: sheet.pixelHeight, pictured: pictures.count, failures: failures)
    }
}
