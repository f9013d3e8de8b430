import Foundation

@testable import AlbumKitCore

/// A backend that scripts trouble for the saver's own rules: an album that vanishes between its
/// lookup and the commit, a failing commit, refused albums, and counts of commits and albums made.
/// Not a second in-memory library (that is `InMemoryBackend`, which the conformance kit runs): like
/// Photos, it resolves the album outside its commit, so the saver's retry after
/// ``AlbumVanished`` is reachable, which a library finding its album inside its transaction never
/// reaches.
final class ScriptedSaverBackend: LibraryBackend, AlbumEditing, AssetDeleting, LibraryVerifying {
    struct State {
        var albums: [(id: String, title: AlbumTitle, members: [String])] = []
        var assets: [String: String] = [:]  // id → original name
        var remembered: [String: String] = [:]
        var commits = 0
        var createdAlbums = 0
        /// Delete the resolved album right before the next N commits (a race window).
        var vanishBeforeCommit = 0
        var failNextCommit: AlbumError?
        var albumRefusal: String?
    }

    let identity = "memory:\(UUID().uuidString)"
    let state = Locked(State())

    struct Staged: Sendable {
        let name: String
        let metadata: MediaMetadata
    }

    func albumUnavailableReason(needsAlbum: Bool) async throws -> String? {
        needsAlbum ? state.withLock { $0.albumRefusal } : nil
    }

    func stage(_ media: Media) async throws -> Staged {
        let reader = try MediaReader(media)
        return Staged(name: media.originalFilename ?? "?", metadata: reader.metadata)
    }

    func discard(_ staged: Staged) async {}

    private struct Directory: AlbumDirectory {
        let state: State
        func rememberedAlbumID(for title: AlbumTitle) throws -> String? { state.remembered[title.key] }
        func albumExists(id: String) throws -> Bool { state.albums.contains { $0.id == id } }
        func oldestAlbum(titled title: AlbumTitle) throws -> String? { state.albums.first { $0.title == title }?.id }
    }

    func commit(_ staged: [Staged], to album: AlbumRequest?) async throws -> CommitReceipt {
        // Look up outside the "transaction", as PhotoKit must, then let the scripted race happen.
        let resolution = try album.map { try $0.resolve(in: Directory(state: state.withLock { $0 })) }
        await Task.yield()
        return try state.withLock { state in
            state.commits += 1
            if let error = state.failNextCommit {
                state.failNextCommit = nil
                throw error
            }
            var albumID: String?
            var outcome: AlbumOutcome?
            if let album, let resolution {
                switch resolution {
                case .existing(let id):
                    if state.vanishBeforeCommit > 0 {
                        state.vanishBeforeCommit -= 1
                        state.albums.removeAll { $0.id == id }
                    }
                    guard state.albums.contains(where: { $0.id == id }) else { throw AlbumVanished(albumID: id) }
                    (albumID, outcome) = (id, .found)
                case .create(let created):
                    let id = UUID().uuidString
                    state.albums.append((id, album.title, []))
                    state.createdAlbums += 1
                    (albumID, outcome) = (id, created)
                }
                state.remembered[album.title.key] = albumID
            }
            var results: [Result<CommittedAsset, AlbumError>] = []
            for item in staged {
                let id = UUID().uuidString
                state.assets[id] = item.name
                if let albumID, let index = state.albums.firstIndex(where: { $0.id == albumID }) {
                    state.albums[index].members.append(id)
                }
                results.append(.success(CommittedAsset(assetID: id, metadata: item.metadata)))
            }
            return CommitReceipt(albumID: albumID, albumOutcome: outcome, assets: results)
        }
    }

    func albums() async throws -> [AlbumInfo] {
        state.withLock { $0.albums.map { AlbumInfo(id: $0.id, title: $0.title.text, count: $0.members.count) } }
    }

    func album(withID id: String) async throws -> AlbumInfo? {
        try await albums().first { $0.id == id }  // a test double: its few albums are in memory
    }

    func findAlbum(titled title: AlbumTitle) async throws -> String? {
        let snapshot = state.withLock { $0 }
        if case .existing(let id) = try AlbumRequest(title: title).resolve(in: Directory(state: snapshot)) { return id }
        return nil
    }

    func assets(inAlbumWithID id: String) async throws -> [AssetInfo] {
        state.withLock { state in
            (state.albums.first { $0.id == id }?.members ?? []).map {
                AssetInfo(id: $0, originalFilename: state.assets[$0], kind: .photo, byteSize: 0, addedAt: Date())
            }
        }
    }

    func assets(inAlbumWithID id: String, originallyNamed keys: [String]) async throws -> [AssetInfo] {
        try await assets(inAlbumWithID: id).filter { asset in
            asset.originalFilename.map { keys.contains(OriginalNameKey.of($0)) } ?? false
        }
    }
    func createAlbum(titled title: AlbumTitle) async throws -> (id: String, outcome: AlbumOutcome) {
        if let id = try await findAlbum(titled: title) { return (id, .found) }
        return (userCreatesAlbum(titled: title.text), .created)
    }
    func renameAlbum(id: String, to title: AlbumTitle) async throws { userRenamesAlbum(id: id, to: title.text) }
    func deleteAlbum(id: String, force: Bool) async throws { userDeletesAlbum(id: id) }
    func verify() async throws -> VerificationReport { VerificationReport(checkedAssets: 0, problems: []) }

    // MARK: Assets

    func assets(in order: AssetOrder, after cursor: AssetCursor?, limit: Int) async throws -> AssetPage {
        let all = state.withLock { state in
            state.assets.map {
                AssetInfo(id: $0.key, originalFilename: $0.value, kind: .photo, byteSize: 0, addedAt: Date())
            }
        }
        return AssetCursor.page(of: all, in: order, after: cursor, limit: limit)
    }

    func addAssets(_ ids: [String], toAlbumWithID albumID: String) async throws -> [String] {
        try state.withLock { state in
            guard let index = state.albums.firstIndex(where: { $0.id == albumID }) else {
                throw AlbumError(.albumNotFound, "no album \(albumID)")
            }
            if let unknown = ids.first(where: { state.assets[$0] == nil }) {
                throw AlbumError(.assetNotFound, "no asset \(unknown)")
            }
            for id in ids where !state.albums[index].members.contains(id) { state.albums[index].members.append(id) }
            return ids
        }
    }

    func removeAssets(_ ids: [String], fromAlbumWithID albumID: String) async throws {
        try state.withLock { state in
            guard let index = state.albums.firstIndex(where: { $0.id == albumID }) else {
                throw AlbumError(.albumNotFound, "no album \(albumID)")
            }
            if let missing = ids.first(where: { !state.albums[index].members.contains($0) }) {
                throw AlbumError(.assetNotFound, "\(missing) is not in the album")
            }
            state.albums[index].members.removeAll { ids.contains($0) }
        }
    }

    func deleteAssets(_ ids: [String]) async throws -> [AssetDeletion] {
        try state.withLock { state in
            if let unknown = ids.first(where: { state.assets[$0] == nil }) {
                throw AlbumError(.assetNotFound, "no asset \(unknown)")
            }
            for id in ids { state.assets[id] = nil }
            for index in state.albums.indices { state.albums[index].members.removeAll { ids.contains($0) } }
            return ids.map { AssetDeletion(id: $0) }
        }
    }

    /// Simulates the user deleting or renaming an album in another app.
    func userDeletesAlbum(id: String) { state.withLock { $0.albums.removeAll { $0.id == id } } }
    func userRenamesAlbum(id: String, to title: String) {
        state.withLock { state in
            if let index = state.albums.firstIndex(where: { $0.id == id }) {
                state.albums[index].title = try! AlbumTitle(title)
            }
        }
    }
    func userCreatesAlbum(titled title: String) -> String {
        state.withLock { state in
            let id = UUID().uuidString
            state.albums.append((id, try! AlbumTitle(title), []))
            return id
        }
    }
}
