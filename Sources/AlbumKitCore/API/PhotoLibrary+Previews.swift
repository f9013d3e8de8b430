import AlbumKitPreviews
import Foundation

extension PhotoLibrary {
    /// Makes every kept size of thumbnail and preview of `assets` that is missing or damaged (a
    /// catalog and a shared library: 256, 512 and 2048 pixels; a folder library: 256 and 512 in the desktop's cache), a
    /// few assets at once (one per core); `progress` gets (assets done, assets in all) after each.
    /// An asset that fails is reported, not thrown: the others are still made.
    ///
    /// ```swift
    /// let report = try await library.buildPreviews(of: try await library.assets(inAlbumTitled: "Trips"))
    /// ```
    /// - Throws: `.notSupported` for a library that keeps none (Photos, in memory: they
    ///   make them on request); `.notSupported` naming libvips42 when it is missing.
    package func buildPreviews(of assets: [AssetInfo], progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in })
        async throws -> PreviewBuildReport
    {
        try await Self.mapping {
            guard let keeping = try await backend as? any PreviewKeeping else {
                throw AlbumError(
                    .notSupported,
                    "This library keeps no thumbnails or previews: it makes them when they are asked for.")
            }
            _ = try PreviewPipeline.renderer()
            let sizes = keeping.keptSizes
            let lanes = max(1, ProcessInfo.processInfo.activeProcessorCount)
            var report = PreviewBuildReport()
            var done = 0
            try await withThrowingTaskGroup(of: PreviewBuildReport.self) { group in
                var next = 0
                func launch() {
                    let asset = assets[next]
                    next += 1
                    group.addTask { await Self.buildPreviews(of: asset, sizes: sizes, keeping: keeping) }
                }
                while next < min(lanes, assets.count) { launch() }
                while let one = try await group.next() {
                    report.made += one.made
                    report.reused += one.reused
                    report.videos += one.videos
                    report.failures += one.failures
                    done += 1
                    progress(done, assets.count)
                    if next < assets.count { launch() }
                }
            }
            return report
        }
    }

    /// Starts making the thumbnails (256 and 512 pixels) of the assets `ids` in the background and
    /// returns at once: after a save was acknowledged (`album serve` does it for each upload), so a
    /// grid finds them made. At most one asset per core is worked on, at the lowest priority; a save
    /// is never held back by it. Nothing is reported: one that cannot be made is made, or its error
    /// given, on its first request. A library that keeps none (Photos, in memory) does nothing.
    ///
    /// ```swift
    /// let saved = try await library.album(titled: "Trips").save(.file(url))
    /// await library.makeThumbnailsInBackground(ofAssetsWithIDs: [saved.assetID])
    /// ```
    package func makeThumbnailsInBackground(ofAssetsWithIDs ids: [String]) async {
        // A library that did not open has nothing to picture; its next use says why.
        guard !ids.isEmpty, let keeping = (try? await backend) as? any PreviewKeeping else { return }
        BackgroundPreviews.shared.make(ofAssetsWithIDs: ids, in: keeping)
    }

    /// One asset's sizes, smallest first (the largest decodes the original once more at most).
    private static func buildPreviews(of asset: AssetInfo, sizes: [PreviewSize], keeping: any PreviewKeeping) async
        -> PreviewBuildReport
    {
        var report = PreviewBuildReport()
        for size in sizes {
            do {
                switch try await keeping.preview(ofAssetWithID: asset.id, size: size) {
                case .some((_, true)): report.reused += 1
                case .some((_, false)): report.made += 1
                case .none: break
                }
                if asset.kind == .video, size == sizes.first { report.videos += 1 }
            } catch {
                let file = (error as? AlbumError)?.file ?? asset.fileURL?.path ?? asset.originalFilename ?? asset.id
                report.failures.append(.init(assetID: asset.id, file: file, reason: "\(error)"))
                break
            }
        }
        return report
    }
}
