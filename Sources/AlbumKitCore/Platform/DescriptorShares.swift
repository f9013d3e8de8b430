import AlbumKitMedia

/// This process's open-file budget (``FileSystem/descriptorBudget``), shared by the batch saves
/// running in it at once: each takes a share for its staged files while it runs and sizes its
/// chunks to it, so two saves divide the budget instead of each sizing its chunks as if it were
/// alone (and together opening more files than the process may).
///
/// ```swift
/// let share = DescriptorShares.process.take(upTo: 4 * 1024)
/// defer { DescriptorShares.process.giveBack(share) }
/// ```
package final class DescriptorShares: Sendable {
    /// The shares of this process's budget.
    package static let process = DescriptorShares { FileSystem.descriptorBudget }

    /// The least a share holds, so a save goes on (a chunk of two) when others hold the rest.
    package static let smallestShare = 8

    private let budget: @Sendable () -> Int
    private let taken = Locked(0)

    /// Shares of the budget `budget` returns (read at each ``take(upTo:)``: the limit may be
    /// raised or lowered while the process runs).
    package init(budget: @escaping @Sendable () -> Int) {
        self.budget = budget
    }

    /// Takes up to `wanted` descriptors of what no other share holds, and never fewer than
    /// ``smallestShare``. Give them back with ``giveBack(_:)``.
    package func take(upTo wanted: Int) -> Int {
        let budget = budget()
        return taken.withLock { taken in
            let share = max(Self.smallestShare, min(wanted, budget - taken))
            taken += share
            return share
        }
    }

    /// Gives back a share ``take(upTo:)`` returned.
    package func giveBack(_ share: Int) {
        taken.withLock { $0 -= share }
    }
}
