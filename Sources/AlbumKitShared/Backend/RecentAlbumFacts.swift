#if os(Linux)
    import AlbumKitCore

    /// The resolution rule's facts (``SharedAlbumDirectory/factsQuery``'s row) last read for each
    /// album title, kept for the save that usually follows a look-up: its transaction makes its
    /// album changes from them and has the server check them under the title's lock, in one round
    /// trip. A look-up no save follows (a long-running `album serve` looks up many titles) leaves
    /// its facts behind, so only the `limit` titles looked up last are kept: an older guess is
    /// dropped, and the save it was for reads the facts under the lock instead (one round trip more).
    ///
    /// ```swift
    /// let kept = RecentAlbumFacts(limit: 2)
    /// kept.keep(["id-1", "t", nil, nil, nil], forTitleKey: "trip")
    /// kept.take(forTitleKey: "trip")   // the row, now forgotten
    /// ```
    final class RecentAlbumFacts: Sendable {
        /// The facts by title key, and the keys from the least recently kept to the most.
        private let state = Locked<(facts: [String: [String?]], order: [String])>(([:], []))
        /// The most titles kept.
        let limit: Int

        init(limit: Int) {
            precondition(limit > 0, "at least one title's facts are kept")
            self.limit = limit
        }

        /// Keeps `facts` for `titleKey` (replacing what was kept for it), dropping the least
        /// recently kept title's once more than ``limit`` titles are kept.
        func keep(_ facts: [String?], forTitleKey titleKey: String) {
            state.withLock { state in
                if state.facts.updateValue(facts, forKey: titleKey) != nil {
                    state.order.removeAll { $0 == titleKey }
                }
                state.order.append(titleKey)
                if state.order.count > limit { state.facts[state.order.removeFirst()] = nil }
            }
        }

        /// The facts kept for `titleKey`, forgotten now (a guess is used once); `nil` when none are.
        func take(forTitleKey titleKey: String) -> [String?]? {
            state.withLock { state in
                guard let facts = state.facts.removeValue(forKey: titleKey) else { return nil }
                state.order.removeAll { $0 == titleKey }
                return facts
            }
        }

        /// How many titles' facts are kept.
        var count: Int { state.withLock { $0.facts.count } }
    }
#endif
