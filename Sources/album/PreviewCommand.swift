import AlbumKit
import AlbumKitCore
import Foundation

/// `album previews [--album TITLE]`: makes the thumbnails and previews the library does not keep yet.
enum PreviewCommand {
    static func previews(_ arguments: Arguments) async throws -> Int32 {
        let library = try LibraryChoice.open(arguments, create: false)
        let assets: [AssetInfo]
        if let title = arguments.value(.album) {
            assets = try await library.assets(inAlbumTitled: title)
        } else {
            var all: [AssetInfo] = []
            for try await asset in library.allAssets(orderedBy: .dateAdded) { all.append(asset) }
            assets = all
        }
        let showsProgress = Output.isTerminal && !arguments.quiet && assets.count > 1
        ProgressLine.shared.start(total: assets.count, enabled: showsProgress, noun: "photos")
        let report = try await library.buildPreviews(of: assets) { done, _ in ProgressLine.shared.update(done) }
        ProgressLine.shared.stop()
        if arguments.json {
            struct Failure: Encodable {
                let asset: String
                let file: String
                let reason: String
            }
            struct Line: Encodable {
                let made: Int
                let reused: Int
                let videos: Int
                let failed: [Failure]
            }
            Output.json(
                Line(
                    made: report.made, reused: report.reused, videos: report.videos,
                    failed: report.failures.map { Failure(asset: $0.assetID, file: $0.file, reason: $0.reason) }))
        } else {
            for failure in report.failures { Output.err("failed: \(failure.file): \(failure.reason)") }
            if !arguments.quiet {
                let videos =
                    report.videos == 0
                    ? "" : " (poster frames of \(report.videos) video\(report.videos == 1 ? "" : "s") among them)"
                Output.out(
                    "made \(report.made), reused \(report.reused), failed \(report.failures.count)\(videos)")
            }
        }
        return report.failures.isEmpty ? 0 : 1
    }
}
