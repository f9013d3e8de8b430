/// What ``PhotoLibrary/contactSheet(of:cellSize:across:pdf:)`` made: the file's bytes (a JPEG, or
/// a PDF page showing it), the sheet's size in pixels, how many assets are on it and those left off.
///
/// ```swift
/// let sheet = try await library.contactSheet(of: assets)
/// print(sheet.pixelWidth, "×", sheet.pixelHeight, sheet.pictured, "pictures,", sheet.failures.count, "left off")
/// ```
package struct ContactSheet: Sendable {
    /// An asset left off the sheet.
    package struct Failure: Sendable {
        /// The asset's identifier.
        package var assetID: String
        /// Its file's name, for the user.
        package var file: String
        /// Why it has no thumbnail.
        package var reason: String
    }

    /// The whole file: a JPEG or a PDF.
    package var bytes: [UInt8]
    /// The sheet's width in pixels.
    package var pixelWidth: Int
    /// The sheet's height in pixels.
    package var pixelHeight: Int
    /// Assets on the sheet.
    package var pictured: Int
    /// Assets left off, in the order met.
    package var failures: [Failure]
}
