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

    /// `album contact-sheet TITLE --output FILE [--size PIXELS] [--across N]`: the album's thumbnails
    /// with names and dates, as one JPEG or one PDF page.
    static func contactSheet(_ arguments: Arguments) async throws -> Int32 {
        guard let output = arguments.value(.output) else {
            throw AlbumCommand.UsageFailure(message: "contact-sheet needs --output FILE, a new .jpg or .pdf file")
        }
        let kind = (output as NSString).pathExtension.lowercased()
        guard ["jpg", "jpeg", "pdf"].contains(kind) else {
            throw AlbumCommand.UsageFailure(
                message: "contact-sheet writes a JPEG (.jpg, .jpeg) or a PDF (.pdf), not '\(output)'")
        }
        func number(_ option: CommandLineSpec.OptionName, default value: Int, in range: ClosedRange<Int>) throws -> Int
        {
            guard let text = arguments.value(option) else { return value }
            guard let number = Int(text), range.contains(number) else {
                throw AlbumCommand.UsageFailure(
                    message: "\(option) takes a number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
            return number
        }
        let size = try number(.size, default: 256, in: 16...2048)
        let across = try number(.across, default: 6, in: 1...100)
        let library = try LibraryChoice.open(arguments, create: false)
        let assets = try await library.assets(inAlbumTitled: arguments.positional[0])
        let sheet = try await library.contactSheet(of: assets, cellSize: size, across: across, pdf: kind == "pdf")
        try AssetCommands.write(sheet.bytes, toNewFile: output)
        for failure in sheet.failures { Output.err("album: left off: \(failure.file): \(failure.reason)") }
        if arguments.json {
            struct Line: Encodable {
                let file: String
                let width: Int
                let height: Int
                let pictures: Int
                let leftOff: Int
            }
            Output.json(
                Line(
                    file: output, width: sheet.pixelWidth, height: sheet.pixelHeight, pictures: sheet.pictured,
                    leftOff: sheet.failures.count))
        } else if !arguments.quiet {
            Output.out(
                "wrote \(output): \(sheet.pictured) pictures on a \(sheet.pixelWidth)x\(sheet.pixelHeight) sheet"
                    + (kind == "pdf" ? " (PDF)" : ""))
        }
        return sheet.failures.isEmpty ? 0 : 1
    }
}
