import AlbumKitCore
import Foundation

#if canImport(Photos)
    import Photos
#else
    import PhotoKitSimulator
#endif

/// The whole library, moving assets between albums and deleting them, through Photos.
///
/// Photos does not publish when an asset was added to the library, so both orders use its
/// creation date (when it was taken); deleting asks the user to confirm and keeps the assets in
/// "Recently Deleted" — a refusal is `.cancelled`.
extension PhotoKitBackend: AssetDeleting {
    package func assets(in order: AssetOrder, after cursor: AssetCursor?, limit: Int) async throws -> AssetPage {
        try await assets(in: order, matching: .all, after: cursor, limit: limit)
    }

    /// Photos filters the fetch by media type and creation date; the page is cut from what it returns.
    package func assets(in order: AssetOrder, matching filter: AssetFilter, after cursor: AssetCursor?, limit: Int)
        async throws -> AssetPage
    {
        var conditions: [String] = []
        var arguments: [Any] = []
        if let kinds = filter.kinds {
            let types = kinds.map { $0 == .video ? PHAssetMediaType.video.rawValue : PHAssetMediaType.image.rawValue }
            conditions.append("mediaType IN %@")
            arguments.append(types.sorted())
        }
        if let dates = filter.dates {
            // Whole seconds around the range: the page below keeps exactly the order's keys in it.
            conditions.append("creationDate >= %@ AND creationDate < %@")
            arguments.append(dates.lowerBound.addingTimeInterval(-1) as NSDate)
            arguments.append(dates.upperBound.addingTimeInterval(1) as NSDate)
        }
        var options: PHFetchOptions?
        if !conditions.isEmpty {
            options = PHFetchOptions()
            options?.predicate = NSPredicate(format: conditions.joined(separator: " AND "), argumentArray: arguments)
        }
        let fetched = PHAsset.fetchAssets(with: options)
        let members = try filter.albumID.map {
            Self.identifiers(in: PHAsset.fetchAssets(in: try Self.existingCollection($0), options: nil))
        }
        let all = (0..<fetched.count).map { Self.info(fetched.object(at: $0)) }
            .filter { filter.matches($0, in: order, albumMembers: members) }
        return AssetCursor.page(of: all, in: order, after: cursor, limit: limit)
    }

    package func addAssets(_ ids: [String], toAlbumWithID albumID: String) async throws -> [String] {
        let collection = try Self.existingCollection(albumID)
        let present = Self.identifiers(in: PHAsset.fetchAssets(in: collection, options: nil))
        let assets = try Self.existingAssets(ids)
        let missing = assets.filter { !present.contains($0.localIdentifier) }
        if !missing.isEmpty {
            try await change { PHAssetCollectionChangeRequest(for: collection)?.addAssets(missing as NSArray) }
        }
        return ids
    }

    package func removeAssets(_ ids: [String], fromAlbumWithID albumID: String) async throws {
        let collection = try Self.existingCollection(albumID)
        let present = Self.identifiers(in: PHAsset.fetchAssets(in: collection, options: nil))
        if let absent = ids.first(where: { !present.contains($0) }) {
            throw AlbumError(.assetNotFound, "The asset \(absent) is not in the album.")
        }
        let assets = try Self.existingAssets(ids)
        try await change { PHAssetCollectionChangeRequest(for: collection)?.removeAssets(assets as NSArray) }
    }

    package func deleteAssets(_ ids: [String]) async throws -> [AssetDeletion] {
        let assets = try Self.existingAssets(ids)
        try await change { PHAssetChangeRequest.deleteAssets(assets as NSArray) }
        return ids.map { AssetDeletion(id: $0) }
    }

    /// One change block; Photos errors mapped.
    private func change(_ body: @escaping @Sendable () -> Void) async throws {
        do { try await PHPhotoLibrary.shared().performChanges(body) } catch { throw Self.map(error, items: []) }
    }

    private static func existingCollection(_ id: String) throws -> PHAssetCollection {
        guard let collection = collection(id) else {
            throw AlbumError(.albumNotFound, "There is no album with the identifier \(id) in Photos.")
        }
        return collection
    }

    /// The assets, in the order of `ids`; every id must exist.
    private static func existingAssets(_ ids: [String]) throws -> [PHAsset] {
        let fetched = PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil)
        var byID: [String: PHAsset] = [:]
        for index in 0..<fetched.count {
            let asset = fetched.object(at: index)
            byID[asset.localIdentifier] = asset
        }
        return try ids.map { id in
            guard let asset = byID[id] else {
                throw AlbumError(.assetNotFound, "There is no asset with the identifier \(id) in Photos.")
            }
            return asset
        }
    }

    private static func identifiers(in result: PHFetchResult<PHAsset>) -> Set<String> {
        Set((0..<result.count).map { result.object(at: $0).localIdentifier })
    }

    /// An asset's description: the original resource's file name, pixel size, duration, creation
    /// date, location and favourite flag. Photos publishes no date added (`dateAdded` is `nil`)
    /// and no cheap size of the original (`byteSize` is `nil`, never 0).
    static func info(_ asset: PHAsset) -> AssetInfo {
        let resources = PHAssetResource.assetResources(for: asset)
        let original = originalResource(resources)
        let isVideo = asset.mediaType == .video
        var info = AssetInfo(
            id: asset.localIdentifier, originalFilename: original?.originalFilename, kind: isVideo ? .video : .photo,
            byteSize: nil, addedAt: asset.creationDate ?? Date(timeIntervalSince1970: 0),
            pixelWidth: asset.pixelWidth > 0 ? asset.pixelWidth : nil,
            pixelHeight: asset.pixelHeight > 0 ? asset.pixelHeight : nil,
            duration: isVideo && asset.duration > 0 ? asset.duration : nil, capturedAt: asset.creationDate,
            location: asset.location.map {
                GeoLocation(
                    latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude,
                    altitude: $0.verticalAccuracy < 0 ? nil : $0.altitude)
            }, isFavorite: asset.isFavorite, isDateAddedKnown: false)
        // The resources a save adds beside the photo: the raw of a pair, an `.AAE`'s edits.
        info.companions = resources.compactMap { resource in
            let role: MediaCompanion.Role? =
                resource.type == .alternatePhoto ? .raw : resource.type == .adjustmentData ? .sidecar : nil
            return role.map { AssetCompanion(role: $0, originalFilename: resource.originalFilename) }
        }
        info.isLivePhoto = resources.contains { $0.type == .pairedVideo }
        return info
    }
}

extension PhotoKitBackend {
    /// The resource whose file name is the asset's: its photo or video, else its first.
    static func originalResource(_ resources: [PHAssetResource]) -> PHAssetResource? {
        let primary: Set<PHAssetResourceType> = [.photo, .video]
        return resources.first { primary.contains($0.type) } ?? resources.first
    }

    /// Photos fetches by date, kind and the like, never by file name: the album's fetch result is
    /// walked reading each asset's resources' names only, and only the assets named as asked are
    /// described (location, size, companions). An album no longer in Photos has none.
    package func assets(inAlbumWithID id: String, originallyNamed keys: [String]) async throws -> [AssetInfo] {
        guard !keys.isEmpty, let collection = Self.collection(id) else { return [] }
        let wanted = Set(keys)
        let assets = PHAsset.fetchAssets(in: collection, options: nil)
        return (0..<assets.count).compactMap { index -> AssetInfo? in
            let asset = assets.object(at: index)
            guard let name = Self.originalResource(PHAssetResource.assetResources(for: asset))?.originalFilename,
                wanted.contains(OriginalNameKey.of(name))
            else { return nil }
            return Self.info(asset)
        }
    }

    /// A place in the album's own order: only the assets asked for are read from the fetch result
    /// (which gives its count and any index without reading the others); by date taken, the
    /// album's listing sorted.
    package func assets(inAlbumWithID id: String, orderedBy order: AssetOrder, at position: Int, limit: Int)
        async throws -> AlbumSlice
    {
        guard order == .dateAdded else {
            return try await listedSlice(inAlbumWithID: id, orderedBy: order, at: position, limit: limit)
        }
        guard let collection = Self.collection(id) else {
            throw AlbumError(.albumNotFound, "The album is no longer in Photos.")
        }
        let assets = PHAsset.fetchAssets(in: collection, options: nil)
        let start = min(assets.count, max(0, position))
        let end = min(assets.count, start + max(1, limit))
        return AlbumSlice(
            assets: (start..<end).map { Self.info(assets.object(at: $0)) }, position: position, albumCount: assets.count
        )
    }
}
