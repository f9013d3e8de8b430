/// Serializes album resolution and commit per library and album title, within one process.
///
/// Saves into different albums (or different libraries) never wait for each other; saves into the
/// same album commit one at a time, so a missing album is created once.
package actor TitleGate {
    /// The process-wide gate.
    package static let shared = TitleGate()

    private var holders: Set<String> = []
    private var waiters: [String: [CheckedContinuation<Void, Never>]] = [:]

    /// Runs `body` while holding `key`.
    package func withExclusiveAccess<T: Sendable>(
        to key: String, _ body: @Sendable () async throws -> T
    ) async throws -> T {
        await acquire(key)
        defer { release(key) }
        return try await body()
    }

    private func acquire(_ key: String) async {
        if holders.insert(key).inserted { return }
        await withCheckedContinuation { waiters[key, default: []].append($0) }
    }

    private func release(_ key: String) {
        if var queue = waiters[key], !queue.isEmpty {
            let next = queue.removeFirst()
            waiters[key] = queue.isEmpty ? nil : queue
            next.resume()  // ownership passes to the waiter; `key` stays held
        } else {
            holders.remove(key)
        }
    }
}
