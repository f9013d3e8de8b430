import AlbumKit
import Foundation

/// `export --rename TEMPLATE`: the name each exported photo gets. The fields of `--album-by-date`
/// (`%Y %m %d %B %b %H %M %%`) read its capture time as written (the date it was added when it has
/// none), `{name}` is its original name without the extension, `{n}` its place in the album (1, 2, …,
/// padded with zeros to the width of the album's count); the original extension is kept.
///
/// ```swift
/// let template = try ExportNameTemplate("%Y-%m-%d {name}")
/// template.name(for: asset, number: 3, of: 120)   // "2024-05-01 IMG_0003.JPG"
/// ```
struct ExportNameTemplate {
    private let dates: AlbumDateFormat

    /// Parses `template`; refuses one with a `/` or `..` (a name, never a path) and those
    /// ``AlbumDateFormat`` refuses.
    init(_ template: String) throws(AlbumCommand.UsageFailure) {
        if template.contains("/") || template.contains("..") || template.utf8.contains(0) {
            throw AlbumCommand.UsageFailure(
                message: "--rename \(template): a name cannot hold / or .. (the files stay in DIR)")
        }
        dates = try AlbumDateFormat(template, option: "--rename")
    }

    /// The name of `asset`, the `number`th of an album of `count`.
    func name(for asset: AssetInfo, number: Int, of count: Int) -> String {
        let original = asset.originalFilename ?? asset.fileURL?.lastPathComponent ?? asset.id
        let stem = (original as NSString).deletingPathExtension
        let ext = (original as NSString).pathExtension
        let moment =
            AlbumDateFormat.moment(captureDate: asset.metadata?.captureDate, modified: asset.addedAt)
            ?? AlbumDateFormat.Moment(year: 1970, month: 1, day: 1, hour: 0, minute: 0)
        let digits = String(number)
        let padded = String(repeating: "0", count: max(0, String(count).count - digits.count)) + digits
        let name = dates.title(for: moment).replacingOccurrences(of: "{n}", with: padded)
            .replacingOccurrences(of: "{name}", with: stem)
        return ext.isEmpty ? name : name + "." + ext
    }
}
