import AlbumKitCore

/// A catalog keeps its share links in `shares/links.json` (``ShareLinkFile``), beside its journal:
/// links are not photos or albums, so they stay out of the journal's history and its replays.
extension CatalogBackend: ShareLinkKeeping {
    var shareLinkFile: ShareLinkFile { ShareLinkFile(root: root.path, folder: "shares") }

    package func shareLinks() async throws -> [ShareLink] {
        let file = shareLinkFile
        return try await Blocking.run { try file.read() }
    }

    package func addShareLink(_ link: ShareLink) async throws {
        try requireWritableForLinks()
        let file = shareLinkFile
        try await Blocking.run { try file.update { $0.append(link) } }
    }

    package func removeShareLinks(withIDs ids: Set<String>) async throws -> [String] {
        try requireWritableForLinks()
        let file = shareLinkFile
        return try await Blocking.run {
            try file.update { links in
                let removed = links.filter { ids.contains($0.id) }.map(\.id)
                links.removeAll { ids.contains($0.id) }
                return removed
            }
        }
    }

    package func recordWrongPIN(forLinkWithID id: String) async throws -> Int? {
        try requireWritableForLinks()
        let file = shareLinkFile
        return try await Blocking.run {
            try file.update { links in
                guard let index = links.firstIndex(where: { $0.id == id }) else { return nil }
                links[index].failedPINAttempts += 1
                return links[index].failedPINAttempts
            }
        }
    }

    private func requireWritableForLinks() throws {
        guard !isReadOnly else {
            throw AlbumError(
                .libraryUnwritable, "\(root.path) is on read-only media: its share links cannot change.",
                file: root.path)
        }
    }
}
