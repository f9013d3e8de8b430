/// The sizes derivatives of an asset are made and kept at: a grid's thumbnail, the same for a 2×
/// screen, and a preview for a detail view. A request is served from the smallest that is at least
/// as large (``fitting(_:)``), scaled down from it when smaller.
///
/// ```swift
/// PreviewSize.fitting(200)    // .thumbnail (256)
/// PreviewSize.fitting(1600)   // .preview (2048)
/// ```
package enum PreviewSize: Int, CaseIterable, Sendable, Comparable {
    /// 256 pixels on the longest side.
    case thumbnail = 256
    /// 512 pixels: the thumbnail of a 2× screen.
    case largeThumbnail = 512
    /// 2048 pixels: a detail view.
    case preview = 2048

    /// The smallest size at least `maxPixelSize` (the largest for anything bigger).
    package static func fitting(_ maxPixelSize: Int) -> PreviewSize {
        allCases.first { $0.rawValue >= maxPixelSize } ?? .preview
    }

    /// The longest side in pixels.
    package var pixels: Int { rawValue }

    package static func < (lhs: PreviewSize, rhs: PreviewSize) -> Bool { lhs.rawValue < rhs.rawValue }
}
