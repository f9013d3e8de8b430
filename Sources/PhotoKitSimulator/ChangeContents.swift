#if !canImport(ObjectiveC)
    import Foundation

    /// Everything a change block requested, recorded by the change requests and applied at
    /// commit, all at once or not at all.
    struct ChangeContents: Sendable {
        /// A resource added to a creation request; validated at commit.
        struct Resource: Sendable {
            enum Source: Sendable {
                case data(Data)
                case file(URL)
            }
            let type: PHAssetResourceType
            let source: Source
            let originalFilename: String?
            let uniformTypeIdentifier: String?
            let shouldMoveFile: Bool
        }

        /// Editable asset properties; `nil` means unchanged.
        struct AssetProperties: Sendable {
            var creationDate: Date??
            var location: CLLocation??
            var isFavorite: Bool?
            var isHidden: Bool?
        }

        /// An asset to create.
        struct CreatedAsset: Sendable {
            let localIdentifier: String
            var resources: [Resource] = []
            var properties = AssetProperties()
        }

        /// An existing asset to modify.
        struct EditedAsset: Sendable {
            let localIdentifier: String
            var properties = AssetProperties()
        }

        /// A change to an album's membership.
        enum MemberOperation: Sendable {
            case add([String])
            case insert([String], IndexSet)
            case remove([String])
            case removeAt(IndexSet)
            case replace(IndexSet, [String])
            case move(IndexSet, Int)

            /// The asset identifiers the operation refers to.
            var assetIdentifiers: [String] {
                switch self {
                case .add(let ids), .insert(let ids, _), .remove(let ids), .replace(_, let ids): ids
                case .removeAt, .move: []
                }
            }
        }

        /// An album to create.
        struct CreatedAlbum: Sendable {
            let localIdentifier: String
            var title: String
        }

        /// Changes to an album (created in this block or existing).
        struct EditedAlbum: Sendable {
            let localIdentifier: String
            var title: String?
            var memberOperations: [MemberOperation] = []
        }

        var createdAssets: [CreatedAsset] = []
        var editedAssets: [EditedAsset] = []
        var createdAlbums: [CreatedAlbum] = []
        var editedAlbums: [EditedAlbum] = []
        var deletedAssets: [String] = []
        var deletedAlbums: [String] = []

        /// Whether the block creates, changes or deletes a collection.
        var touchesCollections: Bool {
            !createdAlbums.isEmpty || !editedAlbums.isEmpty || !deletedAlbums.isEmpty
        }

        /// Whether the block needs read-write access (anything beyond creating assets).
        var needsReadWrite: Bool {
            touchesCollections || !editedAssets.isEmpty || !deletedAssets.isEmpty
        }

        /// Changes the created asset `id`.
        mutating func updateCreatedAsset(_ id: String, _ change: (inout CreatedAsset) -> Void) {
            guard let index = createdAssets.firstIndex(where: { $0.localIdentifier == id }) else { return }
            change(&createdAssets[index])
        }

        /// Changes the edit of asset `id`, creating it if needed.
        mutating func updateEditedAsset(_ id: String, _ change: (inout EditedAsset) -> Void) {
            if let index = editedAssets.firstIndex(where: { $0.localIdentifier == id }) {
                change(&editedAssets[index])
            } else {
                var edit = EditedAsset(localIdentifier: id)
                change(&edit)
                editedAssets.append(edit)
            }
        }

        /// Changes the edit of album `id`, creating it if needed.
        mutating func updateEditedAlbum(_ id: String, _ change: (inout EditedAlbum) -> Void) {
            if let index = editedAlbums.firstIndex(where: { $0.localIdentifier == id }) {
                change(&editedAlbums[index])
            } else {
                var edit = EditedAlbum(localIdentifier: id)
                change(&edit)
                editedAlbums.append(edit)
            }
        }
    }
#endif
