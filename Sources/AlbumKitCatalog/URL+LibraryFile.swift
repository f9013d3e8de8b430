import Foundation

extension URL {
    /// The file at `relativePath` (as the index records it, `originals/ab/…`) beneath this folder,
    /// joined as text. `appendingPathComponent(_:)` asks the disk whether the result is a folder:
    /// a `stat` and ~4 µs for every asset a listing prints.
    ///
    /// ```swift
    /// root.appendingFilePath("originals/3f/IMG_0001.jpg")   // file:///…/Photos.albumlibrary/originals/3f/IMG_0001.jpg
    /// ```
    func appendingFilePath(_ relativePath: String) -> URL {
        URL(filePath: path + "/" + relativePath, directoryHint: .notDirectory)
    }
}
