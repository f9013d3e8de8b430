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

    /// Work started on a thread of its own runs while the caller goes on, and its error reaches
    /// every wait.
    @Test func startedWorkRunsWhileTheCallerGoesOnAndRethrowsAtEveryWait() throws {
        let release = DispatchSemaphore(value: 0)
        let ran = Locked(false)
        let work = Blocking.start {
            release.wait()  // held until the caller has gone on
            ran.withLock { $0 = true }
            throw Refused()
        }
        #expect(!ran.withLock { $0 })
        release.signal()
        #expect(throws: Refused.self) { try work.wait() }
        #expect(ran.withLock { $0 })
        #expect(throws: Refused.self) { try work.wait() }
        work.finish()
    }

    /// Items on threads of their own: every item once, on more than one thread at a time.
    @Test func itemsOnThreadsOfTheirOwnRunEachOnceAndTogether() throws {
        let seen = Locked([Int: Int]())
        let running = Locked((now: 0, most: 0))
        try Blocking.forEach(Array(0..<40), threads: 4) { item in
            running.withLock {
                $0.now += 1
                $0.most = max($0.most, $0.now)
            }
            usleep(2_000)  // an upload waiting on the network
            seen.withLock { $0[item, default: 0] += 1 }
            running.withLock { $0.now -= 1 }
        }
        #expect(seen.withLock { $0 } == Dictionary(uniqueKeysWithValues: (0..<40).map { ($0, 1) }))
        #expect(running.withLock { $0.most } > 1)
        #expect(running.withLock { $0.most } <= 4)
    }

    /// The first error is thrown, once every thread has stopped; items not started are skipped.
    @Test func itemsOnThreadsStopAtTheFirstError() throws {
        let started = Locked(0)
        #expect(throws: Refused.self) {
            try Blocking.forEach(Array(0..<1_000), threads: 3) { item in
                started.withLock { $0 += 1 }
                if item == 5 { throw Refused() }
                usleep(1_000)
            }
        }
        let count = started.withLock { $0 }
        #expect(count < 1_000)
        usleep(20_000)
        #expect(started.withLock { $0 } == count)  // nothing ran after the throw returned
    }

    /// A detached worker runs without anyone waiting for it.
    @Test func aDetachedWorkerRuns() {
        let done = DispatchSemaphore(value: 0)
        Blocking.detach { done.signal() }
        #expect(done.wait(timeout: .now() + 10) == .success)
    }

    /// Work an item of ``Blocking/forEach(_:_:)`` starts with ``Blocking/startOnceResumed(_:)``
    /// runs on that item's thread, and only once the caller of the `forEach` has been resumed;
    /// started anywhere else, it runs on a thread of its own.
    @Test func workStartedOnceResumedRunsOnTheItemsThreadAfterTheCallerGoesOn() async throws {
        let callerWentOn = DispatchSemaphore(value: 0)
        let seen = Locked<(item: pthread_t?, work: pthread_t?, afterCaller: Bool)>((nil, nil, false))
        let started = Locked<Blocking.Work?>(nil)
        await Blocking.forEach(1) { _ in
            seen.withLock { $0.item = pthread_self() }
            let work = Blocking.startOnceResumed {
                // Run before the caller was resumed, this would time out: the caller waits for the item
                // (5 minutes: in a full test run the caller may be resumed minutes late).
                let afterCaller = callerWentOn.wait(timeout: .now() + 300) == .success
                seen.withLock {
                    $0.work = pthread_self()
                    $0.afterCaller = afterCaller
                }
            }
            started.withLock { $0 = work }
        }
        callerWentOn.signal()
        try #require(started.withLock { $0 }).wait()
        let (item, work, afterCaller) = seen.withLock { $0 }
        #expect(afterCaller)
        #expect(item != nil && item == work)
        let alone = Locked(false)
        try Blocking.startOnceResumed { alone.withLock { $0 = true } }.wait()
        #expect(alone.withLock { $0 })
    }

    /// Work nobody waits for (thumbnails after a save) runs at nice 19 on threads of its own, which
    /// end with it: the shared queue's threads keep their priority for the saves that follow.
    @Test func backgroundWorkRunsAtTheLowestPriorityOnThreadsOfItsOwn() async throws {
        let before = try await Blocking.run { Blocking.currentThreadPriority() }
        let inside = try await Blocking.$isBackground.withValue(true) {
            try await Blocking.run { Blocking.currentThreadPriority() }
        }
        #if os(Linux)
            #expect(inside == 19)
            #expect(before != nil)
        #endif
        for _ in 0..<16 {
            let after = try await Blocking.run { Blocking.currentThreadPriority() }
            #expect(after == before)
        }
    }
}
