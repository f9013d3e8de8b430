import AlbumKitCore

/// A folder library keeps its share links in `.albumkit/shares/links.json` (``ShareLinkFile``), hidden
/// beside its remembered albums, where photo tools never show them.
extension FolderBackend: ShareLinkKeeping {
    var shareLinkFile: ShareLinkFile {
        ShareLinkFile(root: root.path, folder: FolderLibraryState.directoryName + "/shares")
    }

    package func shareLinks() async throws -> [ShareLink] {
        let file = shareLinkFile
        return try await Blocking.run { try file.read() }
    }

    package func addShareLink(_ link: ShareLink) async throws {
        let file = shareLinkFile
        try await Blocking.run { try file.update { $0.append(link) } }
    }

    package func removeShareLinks(withIDs ids: Set<String>) async throws -> [String] {
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
        let file = shareLinkFile
        return try await Blocking.run {
            try file.update { links in
                guard let index = links.firstIndex(where: { $0.id == id }) else { return nil }
                links[index].failedPINAttempts += 1
                return links[index].failedPINAttempts
            }
        }
    }
}
