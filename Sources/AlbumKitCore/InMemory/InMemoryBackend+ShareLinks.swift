/// The in-memory library keeps its share links in memory, as the disk libraries keep theirs in the
/// library: tests of an app's sharing run without a disk.
extension InMemoryBackend: ShareLinkKeeping {
    package func shareLinks() async throws -> [ShareLink] { state.withLock { $0.shareLinks } }

    package func addShareLink(_ link: ShareLink) async throws { state.withLock { $0.shareLinks.append(link) } }

    package func removeShareLinks(withIDs ids: Set<String>) async throws -> [String] {
        state.withLock { state in
            let removed = state.shareLinks.filter { ids.contains($0.id) }.map(\.id)
            state.shareLinks.removeAll { ids.contains($0.id) }
            return removed
        }
    }

    package func recordWrongPIN(forLinkWithID id: String) async throws -> Int? {
        state.withLock { state in
            guard let index = state.shareLinks.firstIndex(where: { $0.id == id }) else { return nil }
            state.shareLinks[index].failedPINAttempts += 1
            return state.shareLinks[index].failedPINAttempts
        }
    }
}
