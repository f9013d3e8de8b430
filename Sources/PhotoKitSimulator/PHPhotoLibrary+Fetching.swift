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
            let records: [AssetRecord] = state.withLock { state in
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
                    return album.assetIdentifiers.compactMap { member in visible.first { $0.localIdentifier == member }
                    }
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
            var includeHidden = options?.includeHiddenAssets ?? false
            if case .identifiers = scope, options == nil { includeHidden = true }
            let objects = records.filter { includeHidden || !$0.isHidden }.map(PHAsset.init(record:))
            return options?.apply(to: objects) ?? objects
        }

        /// Fetches asset collections; empty without read access. User albums need full
        /// read-write access (or limited access, when ``PhotoKitSimulation/limitedAccessAlbums``
        /// is `.allowed`); the Recents smart album is also visible with limited access. Without
        /// sort descriptors the order follows ``PhotoKitSimulation/albumFetchOrder``.
        func fetchAssetCollections(
            type: PHAssetCollectionType?, subtype: PHAssetCollectionSubtype, identifiers: [String]?,
            containing assetID: String?, options: PHFetchOptions?
        ) -> [PHAssetCollection] {
            let collections: [PHAssetCollection] = state.withLock { state in
                guard let access = state.readAccessForFetch() else { return [] }
                let seesAlbums = access == .full || state.limitedAccessAlbums == .allowed
                var all: [PHAssetCollection] =
                    seesAlbums ? state.albums.map { $0.assetCollection(in: state.assets) } : []
                if assetID == nil { all.append(state.recents(access)) }
                if let assetID {
                    let containing = Set(
                        state.albums.filter { $0.assetIdentifiers.contains(assetID) }.map(\.localIdentifier))
                    all.removeAll { !containing.contains($0.localIdentifier) }
                }
                if let type {
                    all.removeAll {
                        $0.assetCollectionType != type || (subtype != .any && $0.assetCollectionSubtype != subtype)
                    }
                }
                guard let identifiers else {
                    if state.albumFetchOrder == .shuffled, options?.sortDescriptors?.isEmpty ?? true { all.shuffle() }
                    return all
                }
                var seen = Set<String>()
                return identifiers.compactMap { id in
                    guard seen.insert(id).inserted else { return nil }
                    return all.first { $0.localIdentifier == id }
                }
            }
            return options?.apply(to: collections) ?? collections
        }
    }
#endif
