/// A library that checks every asset's file against what it records (every kind AlbumKit has).
///
/// ```swift
/// let verifying = try await library.capability((any LibraryVerifying).self, for: "verify its files")
/// let report = try await verifying.verify(progress: nil)
/// ```
package protocol LibraryVerifying: LibraryBackend {
    /// Checks every asset's file against what the library records.
    func verify() async throws -> VerificationReport

    /// As ``verify()``, reporting files and bytes checked as it goes. Default: ``verify()``, with
    /// no progress.
    func verify(progress: (@Sendable (VerificationProgress) -> Void)?) async throws -> VerificationReport

    /// As ``verify(progress:)``, checking as much as `depth` says. Default: the same check at
    /// either depth (a library with nothing more to compare).
    func verify(
        _ depth: VerificationDepth, progress: (@Sendable (VerificationProgress) -> Void)?
    ) async throws -> VerificationReport
}

extension LibraryVerifying {
    package func verify(progress: (@Sendable (VerificationProgress) -> Void)?) async throws -> VerificationReport {
        try await verify()
    }

    package func verify(
        _ depth: VerificationDepth, progress: (@Sendable (VerificationProgress) -> Void)?
    ) async throws -> VerificationReport {
        try await verify(progress: progress)
    }
}
