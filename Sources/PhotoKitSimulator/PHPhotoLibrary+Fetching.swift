#if !canImport(ObjectiveC)
    import Foundation

    extension PHPhotoLibrary {
        /// Which assets an asset fetch looks at.
        enum AssetScope {
            /// The members of a collection, in its order.
            case collection(String)
            /// The assets with these identifiers, in this order (hidden ones included by default).
            case identifiers([String])
            /// The whole library, oldest first, optionally one media type.
            case library(PHAssetMediaType?)
        }

        /// Fetches assets; empty without read access (see `LibraryState.readAccessForFetch`).
        func fetchAssets(scope: AssetScope, options: PHFetchOptions?) -> [PHAsset] {
            let records = state.withLock { Self.assetRecords(scope: scope, options: options, in: &$0) }
            return Self.assets(records, scope: scope, options: options)
        }

        /// A fetch result of assets that change details can perform again.
        func fetchResult(scope: AssetScope, options: PHFetchOptions?) -> PHFetchResult<PHAsset> {
            let options = options?.copy() as? PHFetchOptions
            return PHFetchResult(
                objects: fetchAssets(scope: scope, options: options),
                refetch: { state in
                    Self.assets(
                        Self.assetRecords(scope: scope, options: options, in: &state), scope: scope, options: options)
                })
        }

        /// The records an asset fetch sees in `state`, before the options apply.
        static func assetRecords(scope: AssetScope, options: PHFetchOptions?, in state: inout LibraryState)
            -> [AssetRecord]
        {
            guard let access = state.readAccessForFetch() else { return [] }
            let visible = state.assets.filter { LibraryState.isVisible($0, with: access) }
            switch scope {
            case .collection(let id):
                if id == state.recentsIdentifier { return visible }
                guard access == .full || state.limitedAccessAlbums == .allowed,
                    let album = state.albums.first(where: { $0.localIdentifier == id })
                else {
                    return []
                }
                return album.assetIdentifiers.compactMap { member in visible.first { $0.localIdentifier == member } }
            case .identifiers(let ids):
                var seen = Set<String>()
                return ids.compactMap { id in
                    guard seen.insert(id).inserted else { return nil }
                    return visible.first { $0.localIdentifier == id }
                }
            case .library(let mediaType):
                return visible.filter { mediaType == nil || $0.mediaType == mediaType }
            }
        }

        /// The fetched assets: hidden ones left out unless asked for, then the options applied.
        static func assets(_ records: [AssetRecord], scope: AssetScope, options: PHFetchOptions?) -> [PHAsset] {
            var includeHidden = options?.includeHiddenAssets ?? false
            if case .identifiers = scope, options == nil { includeHidden = true }
            let objects = records.filter { includeHidden || !$0.isHidden }.map(PHAsset.init(record:))
            return options?.apply(to: objects) ?? objects
        }

        /// What an asset-collection fetch asks for.
        struct CollectionQuery {
            var type: PHAssetCollectionType?
            var subtype: PHAssetCollectionSubtype
            var identifiers: [String]?
            var containing: String?
        }

        /// Fetches asset collections; empty without read access. User albums need full
        /// read-write access (or limited access, when ``PhotoKitSimulation/limitedAccessAlbums``
        /// is `.allowed`); the Recents smart album is also visible with limited access. Without
        /// sort descriptors the order follows ``PhotoKitSimulation/albumFetchOrder``.
        func fetchAssetCollections(
            type: PHAssetCollectionType?, subtype: PHAssetCollectionSubtype, identifiers: [String]?,
            containing assetID: String?, options: PHFetchOptions?
        ) -> [PHAssetCollection] {
            let query = CollectionQuery(type: type, subtype: subtype, identifiers: identifiers, containing: assetID)
            let collections = state.withLock { Self.collections(query, options: options, in: &$0) }
            return options?.apply(to: collections) ?? collections
        }

        /// A fetch result of asset collections that change details can perform again.
        func collectionFetchResult(
            type: PHAssetCollectionType?, subtype: PHAssetCollectionSubtype, identifiers: [String]?,
            containing assetID: String?, options: PHFetchOptions?
        ) -> PHFetchResult<PHAssetCollection> {
            let options = options?.copy() as? PHFetchOptions
            let query = CollectionQuery(type: type, subtype: subtype, identifiers: identifiers, containing: assetID)
            return PHFetchResult(
                objects: fetchAssetCollections(
                    type: type, subtype: subtype, identifiers: identifiers, containing: assetID, options: options),
                refetch: { state in
                    let collections = Self.collections(query, options: options, in: &state)
                    return options?.apply(to: collections) ?? collections
                })
        }

        /// The collections a fetch sees in `state`, before the options apply.
        static func collections(_ query: CollectionQuery, options: PHFetchOptions?, in state: inout LibraryState)
            -> [PHAssetCollection]
        {
            guard let access = state.readAccessForFetch() else { return [] }
            let seesAlbums = access == .full || state.limitedAccessAlbums == .allowed
            var all: [PHAssetCollection] = seesAlbums ? state.albums.map { $0.assetCollection(in: state.assets) } : []
            if query.containing == nil { all.append(state.recents(access)) }
            if let assetID = query.containing {
                let containing = Set(
                    state.albums.filter { $0.assetIdentifiers.contains(assetID) }.map(\.localIdentifier))
                all.removeAll { !containing.contains($0.localIdentifier) }
            }
            if let type = query.type {
                all.removeAll {
                    $0.assetCollectionType != type
                        || (query.subtype != .any && $0.assetCollectionSubtype != query.subtype)
                }
            }
            guard let identifiers = query.identifiers else {
                if state.albumFetchOrder == .shuffled, options?.sortDescriptors?.isEmpty ?? true { all.shuffle() }
                return all
            }
            var seen = Set<String>()
            return identifiers.compactMap { id in
                guard seen.insert(id).inserted else { return nil }
                return all.first { $0.localIdentifier == id }
            }
        }
    }
#endif
