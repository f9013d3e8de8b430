/// Progress of a batch save, reported after each item.
///
/// ```swift
/// await album.save(media) { progress in print("\(progress.completed)/\(progress.total)") }
/// ```
public struct SaveProgress: Sendable, Hashable {
    /// Items finished (saved or failed).
    public let completed: Int
    /// Items in the batch.
    public let total: Int
    /// Items that failed so far.
    public let failed: Int

    /// The fraction done, 0...1.
    public var fraction: Double { total == 0 ? 1 : Double(completed) / Double(total) }
}
