import Foundation

extension Media {
    /// Removes the caller's files of a save that asked to move them (``movesFile``), once the
    /// library holds them: the photo or video (both files of a Live Photo), and its
    /// ``companions`` when the library kept them too. Data in memory has no file to remove. Each
    /// goes through ``SourceRemoval``: it is removed only when its bytes, read again now, are those
    /// of one of `copies` (what the library holds, under another inode), and it lies outside
    /// `libraryRoot` and every catalog library.
    ///
    /// ```swift
    /// for item in committed { item.media.removeMovedFiles(companionsKept: true, heldAs: copies, libraryRoot: root) }
    /// ```
    package func removeMovedFiles(companionsKept: Bool, heldAs copies: [StoredCopy], libraryRoot: String?) {
        guard movesFile else { return }
        var paths: [FileSystemPath] = []
        switch source {
        case .file(let url): paths = [FileSystemPath(url.path)]
        case .path(let path): paths = [path]
        case .livePhoto(let photo, let video): paths = [FileSystemPath(photo.path), FileSystemPath(video.path)]
        case .data: break
        }
        if companionsKept { paths += companions.map(\.path) }
        // The asset is saved: a moved file the rule keeps stays where it was (it is the caller's,
        // and nothing is lost).
        for path in paths { _ = SourceRemoval.remove(path, matching: copies, libraryRoot: libraryRoot) }
    }
}
