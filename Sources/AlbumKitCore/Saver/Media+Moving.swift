import Foundation

extension Media {
    /// Removes the caller's files of a save that asked to move them (``movesFile``), once the
    /// library holds them: the photo or video (both files of a Live Photo), and its
    /// ``companions`` when the library kept them too. Data in memory has no file to remove.
    ///
    /// ```swift
    /// for item in committed { item.media.removeMovedFiles(companionsKept: keepsCompanions) }
    /// ```
    package func removeMovedFiles(companionsKept: Bool) {
        guard movesFile else { return }
        var paths: [FileSystemPath] = []
        switch source {
        case .file(let url): paths = [FileSystemPath(url.path)]
        case .path(let path): paths = [path]
        case .livePhoto(let photo, let video): paths = [FileSystemPath(photo.path), FileSystemPath(video.path)]
        case .data: break
        }
        if companionsKept { paths += companions.map(\.path) }
        // The asset is saved: a moved file that cannot be removed stays where it was (it is the
        // caller's, and nothing is lost).
        for path in paths { try? FileSystem.unlink(path) }
    }
}
