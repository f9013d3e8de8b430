import AlbumKitMedia
import AlbumTestSupport
import Dispatch
import Foundation
import Testing

@testable import AlbumKitCore

/// A save's progress reports: one at a time, in order, and a slow callback holds back only the
/// thread delivering.
@Suite(.onThreadsOfTheirOwn) struct ProgressReportsTests {
    @Test func aSlowCallbackHoldsBackOnlyTheThreadDelivering() {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let seen = Locked((values: [SaveProgress](), inside: 0, overlaps: 0))
        let reports = ProgressReports(total: 100) { value in
            let first = seen.withLock { seen in
                seen.inside += 1
                if seen.inside > 1 { seen.overlaps += 1 }
                return seen.values.isEmpty
            }
            if first {
                entered.signal()
                _ = release.wait(timeout: .now() + 60)
            }
            seen.withLock { seen in
                seen.values.append(value)
                seen.inside -= 1
            }
        }
        // One thread's report is being delivered, and its callback waits…
        let delivering = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            reports.itemPrepared()
            delivering.signal()
        }
        #expect(entered.wait(timeout: .now() + 30) == .success)
        // …while another thread counts the rest of the batch without waiting for it.
        let counted = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            for _ in 1..<100 { reports.itemPrepared() }
            for index in 0..<100 { reports.itemFinished(failed: index % 10 == 0) }
            counted.signal()
        }
        #expect(counted.wait(timeout: .now() + 30) == .success, "counting waited for the callback")
        #expect(seen.withLock { $0.values.isEmpty })
        release.signal()
        #expect(delivering.wait(timeout: .now() + 30) == .success)

        // Every report came, one at a time, in the order counted.
        let (values, _, overlaps) = seen.withLock { $0 }
        #expect(overlaps == 0)
        #expect(values.count == 200)
        #expect(values.map(\.prepared) == Array(1...100) + Array(repeating: 100, count: 100))
        #expect(values.map(\.completed) == Array(repeating: 0, count: 100) + Array(1...100))
        #expect(values.last?.failed == 10)
        #expect(zip(values, values.dropFirst()).allSatisfy { $0.fraction <= $1.fraction })
        #expect(values.last?.fraction == 1)
    }
}
