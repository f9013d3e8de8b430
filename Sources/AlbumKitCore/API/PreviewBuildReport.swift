/// What ``PhotoLibrary/buildPreviews(of:progress:)`` did: derivatives made, found kept already, and
/// the assets that could not be pictured, each with its file and the cause.
///
/// ```swift
/// let report = try await library.buildPreviews(of: assets)
/// print("made \(report.made), reused \(report.reused), failed \(report.failures.count)")
/// ```
package struct PreviewBuildReport: Sendable {
    /// One asset that could not be pictured.
    package struct Failure: Sendable {
        /// The asset's identifier.
        package var assetID: String
        /// Its file (or original name), for the user.
        package var file: String
        /// Why, as the error said it.
        package var reason: String
    }

    /// Derivatives made now.
    package var made = 0
    /// Derivatives that were kept already and decoded whole.
    package var reused = 0
    /// Videos among the assets pictured (by their poster frames).
    package var videos = 0
    /// Assets that failed, in the order met.
    package var failures: [Failure] = []
}
