/// Test-only failures of system calls, scoped by path prefix so parallel tests do not interfere
/// (swift-system's `ENABLE_MOCKING` idea). Compiled into debug builds only.
package enum FaultInjector {
    /// The system calls that can be made to fail.
    package enum Operation: String, Sendable {
        case open, write, fsync, publish, mkdir, unlink, read, lock, stat
        /// Watching a folder for changes (`inotify_init1`, `inotify_add_watch`).
        case watch
        /// `access(W_OK)`: whether a folder can be written (as root, only injection says no).
        case access
        /// The `O_TMPFILE` attempt of staging (`EOPNOTSUPP` here makes it use a `.partial` file).
        case openTemporary
    }

    package struct Rule: Sendable {
        package var operation: Operation
        package var pathPrefix: String
        package var errno: Int32
        /// Calls to let through before failing.
        package var skip: Int
        /// Failures left (`Int.max`: always).
        package var times: Int
        /// Failures injected so far.
        package var hits = 0
        /// Calls seen so far: failed, let through, or only counted.
        package var calls = 0
    }

    private static let rules = Locked<[Int: Rule]>([:])
    private static let nextID = Locked(0)

    /// Makes `operation` on paths under `pathPrefix` fail with `errno`, after `skip` successful
    /// calls, `times` times. Returns a token for ``remove(_:)``.
    @discardableResult
    package static func inject(
        _ operation: Operation, under pathPrefix: String, errno: Int32, skip: Int = 0, times: Int = .max
    ) -> Int {
        let id = nextID.withLock { id -> Int in
            id += 1
            return id
        }
        rules.withLock {
            $0[id] = Rule(operation: operation, pathPrefix: pathPrefix, errno: errno, skip: skip, times: times)
        }
        return id
    }

    /// How many failures the rule `id` injected so far.
    package static func hits(_ id: Int) -> Int { rules.withLock { $0[id]?.hits ?? 0 } }

    /// Counts the calls of `operation` on paths under `pathPrefix`, failing none of them: how many
    /// flushes a save makes, say. Returns a token for ``calls(_:)`` and ``remove(_:)``.
    ///
    /// ```swift
    /// let flushes = FaultInjector.count(.fsync, under: library.path)
    /// // … save …
    /// #expect(FaultInjector.calls(flushes) <= 4)
    /// ```
    @discardableResult
    package static func count(_ operation: Operation, under pathPrefix: String) -> Int {
        inject(operation, under: pathPrefix, errno: 0, times: 0)
    }

    /// How many calls the rule `id` has seen so far (failed, let through, or only counted).
    package static func calls(_ id: Int) -> Int { rules.withLock { $0[id]?.calls ?? 0 } }

    /// Removes a rule.
    package static func remove(_ id: Int) { _ = rules.withLock { $0.removeValue(forKey: id) } }

    /// Removes every rule under `pathPrefix`.
    package static func removeAll(under pathPrefix: String) {
        rules.withLock { $0 = $0.filter { !$0.value.pathPrefix.hasPrefix(pathPrefix) } }
    }

    /// The errno to fail with, if a rule matches (consumes one use of it).
    static func check(_ operation: Operation, _ path: String) -> Int32? {
        #if ENABLE_MOCKING
            return rules.withLock { rules -> Int32? in
                var failure: Int32?
                for (id, var rule) in rules where rule.operation == operation && path.hasPrefix(rule.pathPrefix) {
                    // Every matching rule sees the call; the first that fails it fails it.
                    rule.calls += 1
                    defer { rules[id] = rule }
                    guard failure == nil else { continue }
                    if rule.skip > 0 {
                        rule.skip -= 1
                        continue
                    }
                    guard rule.times > 0 else { continue }
                    if rule.times != .max { rule.times -= 1 }
                    rule.hits += 1
                    failure = rule.errno
                }
                return failure
            }
        #else
            return nil
        #endif
    }
}
