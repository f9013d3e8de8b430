/// The result of checking a library's files against what it records.
///
/// ```swift
/// let report = try await library.verify()
/// if !report.isHealthy { report.problems.forEach { print($0) } }
/// ```
public struct VerificationReport: Sendable, Hashable {
    /// Assets checked.
    public let checkedAssets: Int
    /// One line per problem found (missing file, size or SHA-256 mismatch, stray file).
    public let problems: [String]

    /// `true` when no problem was found.
    public var isHealthy: Bool { problems.isEmpty }

    /// Creates a report.
    public init(checkedAssets: Int, problems: [String]) {
        self.checkedAssets = checkedAssets
        self.problems = problems
    }
}
