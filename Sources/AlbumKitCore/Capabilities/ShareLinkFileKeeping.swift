/// A library kind that keeps its share links in a ``ShareLinkFile`` of its own (the catalog and the
/// folder library): the links are read and changed the same way for every such kind; a kind says only
/// where the file is and whether it may be written now.
///
/// ```swift
/// extension FolderBackend: ShareLinkFileKeeping {
///     var shareLinkFile: ShareLinkFile { ShareLinkFile(root: root.path, folder: ".albumkit/shares") }
/// }
/// ```
package protocol ShareLinkFileKeeping: ShareLinkKeeping {
    /// The file of the library's links.
    var shareLinkFile: ShareLinkFile { get }

    /// Throws when the links may not change now (a library on read-only media); the default allows.
    func requireLinksWritable() throws
}

extension ShareLinkFileKeeping {
    package func requireLinksWritable() throws {}

    package func shareLinks() async throws -> [ShareLink] {
        let file = shareLinkFile
        return try await Blocking.run { try file.read() }
    }

    package func addShareLink(_ link: ShareLink) async throws {
        try requireLinksWritable()
        let file = shareLinkFile
        try await Blocking.run { try file.update { $0.append(link) } }
    }

    package func removeShareLinks(withIDs ids: Set<String>) async throws -> [String] {
        try requireLinksWritable()
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
        try requireLinksWritable()
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
