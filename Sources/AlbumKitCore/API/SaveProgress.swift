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

    /// The fraction done, 0...1: preparing counts for the first half and committing for the second,
    /// so the value moves while the first items are read and copied, before any is committed
    /// (``completed`` moves only when items become durable, often many at once).
    ///
    /// ```swift
    /// await album.save(media) { progress in progressView.progress = Float(progress.fraction) }
    /// ```
    public var fraction: Double {
        guard total > 0 else { return 1 }
        return min(1, (Double(max(prepared, completed)) + Double(completed)) / Double(2 * total))
    }
}
