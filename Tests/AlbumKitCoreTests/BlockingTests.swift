import Dispatch
import Foundation
import Testing

@testable import AlbumKitCore

/// Blocking work off the cooperative pool: a caller resumed at the acknowledgement while the
/// work goes on, and milestones other threads wait for.
@Suite struct BlockingTests {
    struct Refused: Error {}

    /// The caller goes on as soon as the work acknowledges its result; the rest of the work runs
    /// after, and ``Blocking/acknowledgedWorkFinished()`` waits for it without holding a thread
    /// (blocking one of the cooperative pool there could starve the caller, which signals the work).
    @Test func aCallerResumesAtTheAcknowledgementWhileTheWorkGoesOn() async throws {
        let release = DispatchSemaphore(value: 0)
        let finished = Locked(false)
        let value = try await Blocking.run { (acknowledge: @escaping @Sendable (Int) -> Void) -> Int in
            acknowledge(42)
            release.wait()  // held until the caller has its value
            finished.withLock { $0 = true }
            return 7  // not the caller's: it was acknowledged with 42
        }
        #expect(value == 42)
        #expect(!finished.withLock { $0 })
        release.signal()
        await Blocking.acknowledgedWorkFinished()
        #expect(finished.withLock { $0 })
    }

    /// Work that fails before acknowledging fails the caller; work that never acknowledges
    /// answers what it returns.
    @Test func anErrorBeforeTheAcknowledgementIsTheCallers() async throws {
        await #expect(throws: Refused.self) {
            _ = try await Blocking.run { (_: @escaping @Sendable (Int) -> Void) -> Int in throw Refused() }
        }
        let value = try await Blocking.run { (_: @escaping @Sendable (Int) -> Void) -> Int in 3 }
        #expect(value == 3)
    }

    /// Every waiter of a milestone, on any thread and at any time, gets what it was reached with.
    @Test func everyWaiterOfAMilestoneGetsItsOutcome() async throws {
        let published = Milestone()
        let failed = Milestone()
        let waited = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                        DispatchQueue.global().async {
                            if (try? published.wait()) != nil { waited.withLock { $0 += 1 } }
                            done.resume()
                        }
                    }
                }
            }
            published.reach()
            failed.reach(.failure(Refused()))
            failed.reach()  // only the first counts
        }
        #expect(waited.withLock { $0 } == 4)
        try published.wait()
        #expect(throws: Refused.self) { try failed.wait() }
        #expect(throws: Refused.self) { try failed.wait() }
    }
}
