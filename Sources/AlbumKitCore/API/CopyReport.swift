/// What a copy from one library into another did (``PhotoLibrary/copy(into:)``, and a catalog
/// copied into a shared library).
///
/// ```swift
/// let report = try await shared.copy(into: backup)
/// print(report.copiedAssets, "copied,", report.existingAssets, "already there")
/// ```
public struct CopyReport: Sendable, Hashable {
    /// Assets copied now.
    public var copiedAssets: Int
    /// Assets the target already held (same bytes), from an earlier run or another save.
    public var existingAssets: Int
    /// Albums created now.
    public var albums: Int
    /// Album memberships added now.
    public var memberships: Int
    /// Assets that could not be copied (their original is missing or damaged in the source, …);
    /// the others were. Running the copy again tries them again.
    public var failures: [ExportReport.Failure]

    /// Whether this run found everything already there: nothing copied, created or added.
    public var copiedNothing: Bool { copiedAssets == 0 && albums == 0 && memberships == 0 }

    /// A report; an empty one by default.
    ///
    /// ```swift
    /// let upToDate = CopyReport(existingAssets: 12)
    /// ```
    public init(
        copiedAssets: Int = 0, existingAssets: Int = 0, albums: Int = 0, memberships: Int = 0,
        failures: [ExportReport.Failure] = []
    ) {
        self.copiedAssets = copiedAssets
        self.existingAssets = existingAssets
        self.albums = albums
        self.memberships = memberships
        self.failures = failures
    }
}
