#if !canImport(ObjectiveC)
    import Foundation

    /// The library's persistent change history (what `fetchPersistentChanges(since:)` reads): one
    /// entry per published change, found by comparing the library with the last recorded state.
    ///
    /// Assumption: Photos documents neither how long it keeps the history nor how it splits it into
    /// changes; the simulator keeps every change until a test forgets the history
    /// (``PhotoKitSimulation/forgetPersistentChangeHistory()``), and records one change per
    /// committed change block or user action.
    struct ChangeHistory: Sendable {
        /// The identifiers of one object type inserted, updated and deleted by a change.
        struct ObjectChanges: Sendable {
            var inserted = Set<String>()
            var updated = Set<String>()
            var deleted = Set<String>()

            var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }

            /// The changes from `before` to `after` (identifier → revision).
            init(from before: [String: Int] = [:], to after: [String: Int] = [:]) {
                for (id, revision) in after {
                    if let was = before[id] {
                        if was != revision { updated.insert(id) }
                    } else {
                        inserted.insert(id)
                    }
                }
                deleted = Set(before.keys.filter { after[$0] == nil })
            }
        }

        /// One recorded change.
        struct Entry: Sendable {
            /// The number of changes recorded up to and including this one.
            let position: Int
            let assets: ObjectChanges
            let albums: ObjectChanges
        }

        /// Tells tokens of this library from others.
        let libraryIdentifier = UUID().uuidString
        /// The changes still kept, oldest first.
        private(set) var entries: [Entry] = []
        /// The number of changes recorded so far: the current token's position.
        private(set) var position = 0
        /// The oldest position a token may come from and still be answered.
        private(set) var oldestReachable = 0
        private var recordedAssets: [String: Int] = [:]
        private var recordedAlbums: [String: Int] = [:]

        /// Records what changed since the last record, when anything did.
        mutating func record(assets: [AssetRecord], albums: [AlbumRecord]) {
            let nowAssets = Dictionary(
                assets.map { ($0.localIdentifier, $0.revision) }, uniquingKeysWith: { a, _ in a })
            let nowAlbums = Dictionary(
                albums.map { ($0.localIdentifier, $0.revision) }, uniquingKeysWith: { a, _ in a })
            let assetChanges = ObjectChanges(from: recordedAssets, to: nowAssets)
            let albumChanges = ObjectChanges(from: recordedAlbums, to: nowAlbums)
            recordedAssets = nowAssets
            recordedAlbums = nowAlbums
            guard !assetChanges.isEmpty || !albumChanges.isEmpty else { return }
            position += 1
            entries.append(Entry(position: position, assets: assetChanges, albums: albumChanges))
        }

        /// Forgets every change recorded so far: tokens made before now expire.
        mutating func forget() {
            entries.removeAll()
            oldestReachable = position
        }

        /// The changes after `token`, or `persistentChangeTokenExpired` for a token older than the
        /// history kept, or made by another library (or a later state of it).
        func changes(since token: PHPersistentChangeToken) throws -> [Entry] {
            guard token.libraryIdentifier == libraryIdentifier, token.position >= oldestReachable,
                token.position <= position
            else { throw PHPhotosError(.persistentChangeTokenExpired) }
            return entries.filter { $0.position > token.position }
        }
    }
#endif
