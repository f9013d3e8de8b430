import AlbumTestSupport
import Foundation
import Testing

/// The suites whose tests block run them on threads of their own, not on the concurrency runtime's
/// pool (``BlockingTestThreads``): a synchronous test body runs there, and so does what an
/// asynchronous one does between its waits.
@Suite(.onThreadsOfTheirOwn) struct BlockingTestThreadsTests {
    @Test func aSynchronousTestRunsOnTheThreadsOfTheirOwn() {
        #expect(BlockingTestThreads.isCurrentThread)
    }

    @Test func anAsynchronousTestGoesOnThereAfterAWait() async throws {
        try await Task.sleep(for: .milliseconds(10))
        #expect(BlockingTestThreads.isCurrentThread)
    }
}

/// A suite without the trait stays on the pool.
@Suite struct PoolThreadTests {
    @Test func aTestWithoutTheTraitRunsOnThePool() {
        #expect(!BlockingTestThreads.isCurrentThread)
    }
}
