/// Progress of a batch save, reported after each item is prepared and after each is finished.
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
    /// Items read, checked and copied so far, including those still waiting for their commit:
    /// moves one item at a time, ahead of `completed` (which moves as items become durable).
    public internal(set) var prepared = 0

    /// The fraction done, 0...1.
    public var fraction: Double { total == 0 ? 1 : Double(completed) / Double(total) }
}
