/// How far a `verify` or `repair` is: files read of those it reads, and their bytes, reported after
/// each file is checked (never before: the numbers count only what is done).
///
/// ```swift
/// let report = try await library.verify { progress in
///     print("\(progress.completed)/\(progress.total)", progress.bytes, "of", progress.totalBytes)
/// }
/// ```
public struct VerificationProgress: Sendable, Hashable {
    /// Files checked (read whole, or found missing).
    public let completed: Int
    /// Files to check.
    public let total: Int
    /// The bytes of the files checked, as the library records or lists their sizes.
    public let bytes: Int64
    /// The bytes of all the files to check.
    public let totalBytes: Int64

    package init(completed: Int, total: Int, bytes: Int64, totalBytes: Int64) {
        self.completed = completed
        self.total = total
        self.bytes = bytes
        self.totalBytes = totalBytes
    }
}
