import Foundation

/// A photo library in memory, for testing app code without Photos or a disk library: it keeps the
/// rules every library keeps (one album per title, remembered album ids, the same bytes stored once,
/// bad files refused by content, all-or-nothing batches), Photos' access levels and policies, the
/// descriptions given with ``Media/with(creationDate:location:isFavorite:movesFile:)``, and reports
/// every change as it happens. Each original's bytes are kept in memory (for its thumbnail).
/// Nothing is written anywhere, except that a file saved with
/// ``Media/movesFile`` is removed after a successful save, as Photos does.
package final class InMemoryBackend:
    LibraryBackend, AccessControl, AlbumEditing, AssetDeleting, ChangeFeed, LibraryVerifying, OriginalReading
{
    package let identity = "memory:\(UUID().uuidString)"
    package let libraryName = "the in-memory library"

    /// The library's contents and the app's access.
    struct State {
        struct Asset {
            var info: AssetInfo
            var sha256: String
            /// The original's bytes (a Live Photo's photo), for its thumbnail.
            var original: Data
        }
        struct Album {
            let id: String
            var title: AlbumTitle
            var members: [String]
            let createdAt: Date
            var info: AlbumInfo { AlbumInfo(id: id, title: title.text, count: members.count, createdAt: createdAt) }
        }
        var assets: [Asset] = []
        var albums: [Album] = []
        var remembered: [String: String] = [:]
        var shareLinks: [ShareLink] = []
        var access: [PhotoLibraryAccessLevel: PhotoLibraryAccess]
        var answer: PhotoLibraryAccess
        var nextNumber = 1
        var observers: [UUID: AsyncThrowingStream<LibraryChange, any Error>.Continuation] = [:]

        mutating func number() -> Int {
            defer { nextNumber += 1 }
            return nextNumber
        }

        func asset(_ id: String) -> Asset? { assets.first { $0.info.id == id } }
        func albumIndex(_ id: String) -> Int? { albums.firstIndex { $0.id == id } }

        /// Tells every observer about `change`.
        func publish(_ change: LibraryChange) {
            guard !change.isEmpty else { return }
            for observer in observers.values { observer.yield(change) }
        }
    }

    let state: Locked<State>

    /// A library whose user answers `answer` when asked; `readWrite` and `addOnly` are the access
    /// now (`addOnly` `nil`: follows read-write, which includes adding).
    package init(readWrite: PhotoLibraryAccess, addOnly: PhotoLibraryAccess?, answer: PhotoLibraryAccess) {
        var access: [PhotoLibraryAccessLevel: PhotoLibraryAccess] = [.readWrite: readWrite]
        if let addOnly { access[.addOnly] = addOnly == .limited ? .authorized : addOnly }
        state = Locked(State(access: access, answer: answer))
    }

    // MARK: Access

    package func access(for level: PhotoLibraryAccessLevel) async -> PhotoLibraryAccess {
        state.withLock { Self.access(for: level, in: $0) }
    }

    package func currentAccess(for level: PhotoLibraryAccessLevel) -> PhotoLibraryAccess {
        state.withLock { Self.access(for: level, in: $0) }
    }

    package func requestAccess(for level: PhotoLibraryAccessLevel) async -> PhotoLibraryAccess {
        state.withLock { state in
            if Self.access(for: level, in: state) == .notDetermined {
                state.access[level] = level == .addOnly && state.answer == .limited ? .authorized : state.answer
            }
            return Self.access(for: level, in: state)
        }
    }

    /// The access at `level`: add-only follows read-write until it was decided on its own.
    private static func access(for level: PhotoLibraryAccessLevel, in state: State) -> PhotoLibraryAccess {
        let readWrite = state.access[.readWrite] ?? .notDetermined
        guard level == .addOnly else { return readWrite }
        if let own = state.access[.addOnly], own != .notDetermined { return own }
        return readWrite == .limited ? .authorized : readWrite
    }

    package func albumUnavailableReason(needsAlbum: Bool) async throws -> String? {
        // As with Photos: read-write for an album, add-only otherwise, asking when never asked.
        let level: PhotoLibraryAccessLevel = needsAlbum ? .readWrite : .addOnly
        if await requestAccess(for: level).isGranted { return nil }
        if needsAlbum, await requestAccess(for: .addOnly).isGranted {
            return "the app may only add photos (add-only access), not use albums"
        }
        let restricted = await access(for: level) == .restricted
        throw AlbumError(
            .accessDenied,
            restricted
                ? "Access to the photo library is restricted on this device (parental controls or management); nothing was saved."
                : "Access to the photo library was denied; allow it in Settings › Privacy › Photos. Nothing was saved.")
    }

    /// The read access listings need.
    private func requireReadAccess() throws {
        guard state.withLock({ Self.access(for: .readWrite, in: $0) }).isGranted else {
            throw AlbumError(
                .accessDenied,
                "The app may not read the photo library (read-write access not given); ask for it with requestAccess(for: .readWrite)."
            )
        }
    }

    // MARK: Saving

    /// A validated item, its bytes, and how to describe it.
    package struct Staged: Sendable {
        let sha256: String
        let byteSize: Int64
        let metadata: MediaMetadata
        let originalFilename: String
        let media: Media
        /// The original's bytes (a Live Photo's photo).
        let original: Data
        /// The SHA-256 of each file read (a Live Photo's two): what a moved file must match.
        let fileSHA256s: [String]
    }

    package func stage(_ media: Media) async throws -> Staged {
        try await Blocking.run { try Self.stageNow(media) }
    }

    private static func stageNow(_ media: Media) throws -> Staged {
        var bytes: Data
        let original: Data
        let metadata: MediaMetadata
        var files: [Data] = []
        switch media.source {
        case .livePhoto(let photo, let video):
            metadata = try MediaReader.livePhotoMetadata(photo: photo, video: video)
            bytes = try read(photo)
            original = bytes
            let videoBytes = try read(video)
            files = [bytes, videoBytes]
            bytes.append(videoBytes)
        case .data(let data, _):
            metadata = try MediaReader(media).metadata
            bytes = data
            original = data
        case .file, .path:
            metadata = try MediaReader(media).metadata
            bytes = try read(media.fileURL ?? URL(fileURLWithPath: media.displayName))
            original = bytes
            files = [bytes]
        }
        var hasher = SHA256Hasher()
        bytes.withUnsafeBytes { hasher.update($0) }
        return Staged(
            sha256: hasher.finalize(), byteSize: Int64(bytes.count), metadata: metadata,
            originalFilename: media.originalFilename ?? "IMG.\(metadata.format.fileExtension)", media: media,
            original: original, fileSHA256s: files.map { file in file.withUnsafeBytes { SHA256Hasher.hash($0) } })
    }

    private static func read(_ url: URL) throws -> Data {
        do throws(SystemError) {
            let (file, size) = try FileSystem.openForReading(url.path)
            return Data(try FileSystem.readAll(file, from: 0, size: size))
        } catch {
            throw error.inputError(file: url.path)
        }
    }

    package func discard(_ staged: Staged) async {}

    /// The album rule's lookups and changes (``AlbumRequest/findOrCreate(in:)``) on a copy of the
    /// state, which the caller writes back under the lock it read it under.
    private final class Store: AlbumStore {
        var state: State
        let now: Date
        /// The albums made, for the change to report.
        var created: [String] = []

        init(_ state: State, at now: Date = Date()) {
            self.state = state
            self.now = now
        }

        func rememberedAlbumID(for title: AlbumTitle) -> String? { state.remembered[title.key] }
        func albumExists(id: String) -> Bool { state.albumIndex(id) != nil }
        func oldestAlbum(titled title: AlbumTitle) -> String? { state.albums.first { $0.title == title }?.id }

        func createAlbum(titled title: AlbumTitle) -> String {
            let id = "album-\(state.number())"
            state.albums.append(State.Album(id: id, title: title, members: [], createdAt: now))
            created.append(id)
            return id
        }

        func remember(_ id: String, for title: AlbumTitle) { state.remembered[title.key] = id }
    }

    package func commit(_ staged: [Staged], to album: AlbumRequest?) async throws -> CommitReceipt {
        let now = Date()
        let receipt = try state.withLock { state in
            var change = LibraryChange()
            var albumID: String?
            var outcome: AlbumOutcome?
            if let album {
                let store = Store(state, at: now)
                (albumID, outcome) = try album.findOrCreate(in: store)
                state = store.state
                change.insertedAlbumIDs += store.created
            }
            var results: [Result<CommittedAsset, AlbumError>] = []
            for item in staged {
                // The same bytes are one asset (as in AlbumKit's own libraries): the first name stays.
                let existing = state.assets.firstIndex { $0.sha256 == item.sha256 }
                let id = existing.map { state.assets[$0].info.id } ?? "asset-\(state.number())"
                if existing == nil {
                    let media = item.media
                    state.assets.append(
                        State.Asset(
                            info: AssetInfo(
                                id: id, originalFilename: item.originalFilename, kind: item.metadata.kind,
                                byteSize: item.byteSize, addedAt: now, sha256: item.sha256, metadata: item.metadata,
                                capturedAt: media.creationDate, location: media.location, isFavorite: media.isFavorite),
                            sha256: item.sha256, original: item.original))
                    change.insertedAssetIDs.append(id)
                }
                if let albumID, let index = state.albumIndex(albumID), !state.albums[index].members.contains(id) {
                    state.albums[index].members.append(id)
                    if !change.insertedAlbumIDs.contains(albumID), !change.changedAlbumIDs.contains(albumID) {
                        change.changedAlbumIDs.append(albumID)
                    }
                }
                results.append(
                    .success(CommittedAsset(assetID: id, isExisting: existing != nil, metadata: item.metadata)))
            }
            state.publish(change)
            return CommitReceipt(albumID: albumID, albumOutcome: outcome, assets: results)
        }
        // Moved, not copied: the app's file goes once the library holds the asset (its companions
        // are not kept: they stay).
        for item in staged {
            // Held in memory: no file of the library's can be the caller's.
            let held = item.fileSHA256s.map { StoredCopy(sha256: $0, file: .init(device: .max, inode: .max)) }
            item.media.removeMovedFiles(companionsKept: false, heldAs: held, libraryRoot: nil)
        }
        return receipt
    }

    // MARK: Albums

    package func albums() async throws -> [AlbumInfo] {
        try requireReadAccess()
        return state.withLock { $0.albums.map(\.info) }
    }

    package func album(withID id: String) async throws -> AlbumInfo? {
        try requireReadAccess()
        return state.withLock { state in state.albumIndex(id).map { state.albums[$0].info } }
    }

    package func findAlbum(titled title: AlbumTitle) async throws -> String? {
        try requireReadAccess()
        return try AlbumRequest(title: title).find(in: Store(state.withLock { $0 }))
    }

    package func assets(inAlbumWithID id: String) async throws -> [AssetInfo] {
        try requireReadAccess()
        return try state.withLock { state in
            guard let index = state.albumIndex(id) else {
                throw AlbumError(.albumNotFound, "There is no album with the identifier \(id).")
            }
            return state.albums[index].members.compactMap { state.asset($0)?.info }
        }
    }

    /// The album's members whose name's key is one of `keys`: a look at each member's name only.
    package func assets(inAlbumWithID id: String, originallyNamed keys: [String]) async throws -> [AssetInfo] {
        try requireReadAccess()
        let wanted = Set(keys)
        return state.withLock { state in
            guard let index = state.albumIndex(id) else { return [] }
            return state.albums[index].members.compactMap { state.asset($0)?.info }.filter { asset in
                asset.originalFilename.map { wanted.contains(OriginalNameKey.of($0)) } ?? false
            }
        }
    }

    package func createAlbum(titled title: AlbumTitle) async throws -> (id: String, outcome: AlbumOutcome) {
        try requireReadAccess()
        return try state.withLock { state in
            let store = Store(state)
            let found = try AlbumRequest(title: title).findOrCreate(in: store)
            state = store.state
            state.publish(LibraryChange(insertedAlbumIDs: store.created))
            return found
        }
    }

    package func renameAlbum(id: String, to title: AlbumTitle) async throws {
        try requireReadAccess()
        try state.withLock { state in
            guard let index = state.albumIndex(id) else {
                throw AlbumError(.albumNotFound, "There is no album with the identifier \(id).")
            }
            state.albums[index].title = title
            state.remembered[title.key] = id
            state.publish(LibraryChange(changedAlbumIDs: [id]))
        }
    }

    package func deleteAlbum(id: String, force: Bool) async throws {
        try requireReadAccess()
        try state.withLock { state in
            guard let index = state.albumIndex(id) else {
                throw AlbumError(.albumNotFound, "There is no album with the identifier \(id).")
            }
            state.albums.remove(at: index)
            state.publish(LibraryChange(removedAlbumIDs: [id]))
        }
    }

    package func verify() async throws -> VerificationReport {
        VerificationReport(checkedAssets: state.withLock { $0.assets.count }, problems: [])
    }

    // MARK: Assets

    package func assets(in order: AssetOrder, after cursor: AssetCursor?, limit: Int) async throws -> AssetPage {
        try requireReadAccess()
        return AssetCursor.page(of: state.withLock { $0.assets.map(\.info) }, in: order, after: cursor, limit: limit)
    }

    package func readOriginal<T: Sendable>(
        ofAssetWithID id: String, _ body: @escaping @Sendable (any ByteSource) throws -> T
    ) async throws -> T? {
        try requireReadAccess()
        guard let original = state.withLock({ $0.asset(id)?.original }) else {
            throw AlbumError(.assetNotFound, "There is no asset with the identifier \(id).")
        }
        return try await Blocking.run { try body(BufferByteSource(bytes: Array(original))) }
    }

    package func addAssets(_ ids: [String], toAlbumWithID albumID: String) async throws -> [String] {
        try requireReadAccess()
        return try state.withLock { state in
            guard let index = state.albumIndex(albumID) else {
                throw AlbumError(.albumNotFound, "There is no album with the identifier \(albumID).")
            }
            if let unknown = ids.first(where: { state.asset($0) == nil }) {
                throw AlbumError(.assetNotFound, "There is no asset with the identifier \(unknown).")
            }
            let new = ids.filter { !state.albums[index].members.contains($0) }
            state.albums[index].members += new
            if !new.isEmpty { state.publish(LibraryChange(changedAlbumIDs: [albumID])) }
            return ids
        }
    }

    package func removeAssets(_ ids: [String], fromAlbumWithID albumID: String) async throws {
        try requireReadAccess()
        try state.withLock { state in
            guard let index = state.albumIndex(albumID) else {
                throw AlbumError(.albumNotFound, "There is no album with the identifier \(albumID).")
            }
            if let absent = ids.first(where: { !state.albums[index].members.contains($0) }) {
                throw AlbumError(.assetNotFound, "The asset \(absent) is not in the album.")
            }
            state.albums[index].members.removeAll { ids.contains($0) }
            state.publish(LibraryChange(changedAlbumIDs: [albumID]))
        }
    }

    package func deleteAssets(_ ids: [String]) async throws -> [AssetDeletion] {
        try requireReadAccess()
        return try state.withLock { state in
            if let unknown = ids.first(where: { state.asset($0) == nil }) {
                throw AlbumError(.assetNotFound, "There is no asset with the identifier \(unknown).")
            }
            let holding = state.albums.filter { album in album.members.contains { ids.contains($0) } }.map(\.id)
            state.assets.removeAll { ids.contains($0.info.id) }
            for index in state.albums.indices { state.albums[index].members.removeAll { ids.contains($0) } }
            state.publish(LibraryChange(removedAssetIDs: ids, changedAlbumIDs: holding))
            return ids.map { AssetDeletion(id: $0) }
        }
    }

    // MARK: Changes

    /// How long following changes takes to start (none by default): a test's way to play a kind
    /// that starts following in a task, after its caller has read the library (a catalog).
    package let followingDelay = Locked<Duration?>(nil)

    /// Every change from when `started` is called on: at once, or after ``followingDelay``.
    package func changes(polling interval: Duration, started: @escaping @Sendable () -> Void)
        -> AsyncThrowingStream<LibraryChange, any Error>
    {
        guard let delay = followingDelay.withLock({ $0 }) else {
            let changes = changes(polling: interval)
            started()
            return changes
        }
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: LibraryChange.self)
        let task = Task {
            do {
                try await Task.sleep(for: delay)
                let changes = self.changes(polling: interval)
                started()
                for try await change in changes { continuation.yield(change) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Every change, as it is made (the interval is not needed).
    package func changes(polling interval: Duration) -> AsyncThrowingStream<LibraryChange, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: LibraryChange.self)
        let key = UUID()
        do { try requireReadAccess() } catch {
            continuation.finish(throwing: error)
            return stream
        }
        state.withLock { $0.observers[key] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.observers.removeValue(forKey: key) }
        }
        return stream
    }

    // MARK: Inspection

    /// Sets the access at `level` as if the user changed it in Settings.
    package func setAccess(_ access: PhotoLibraryAccess, for level: PhotoLibraryAccessLevel) {
        state.withLock { $0.access[level] = access }
    }
}
