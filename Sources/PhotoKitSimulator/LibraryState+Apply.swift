#if !canImport(ObjectiveC)
    import Foundation

    extension LibraryState {
        /// Applies a change block's contents; on error the caller discards this state copy,
        /// so a failing block leaves nothing behind.
        mutating func apply(
            _ contents: ChangeContents, resources: [String: [LoadedResource]], at now: Date
        ) -> PHPhotosError? {
            for album in contents.createdAlbums {
                albums.append(
                    AlbumRecord(
                        localIdentifier: album.localIdentifier, title: album.title, assetIdentifiers: [],
                        creationIndex: albumsEverCreated, creationDate: now, isCreatedByApp: true
                    ))
                albumsEverCreated += 1
            }

            for created in contents.createdAssets {
                let loaded = resources[created.localIdentifier] ?? []
                let types = loaded.map(\.type)
                var record = AssetRecord(
                    localIdentifier: created.localIdentifier,
                    mediaType: types.contains(.video) ? .video : .image,
                    mediaSubtypes: types.contains(.pairedVideo) ? .photoLive : [],
                    creationDate: now, modificationDate: now,
                    isCreatedByApp: true, isInLimitedSelection: true
                )
                for resource in loaded { record.resources.append(store(resource)) }
                Self.apply(created.properties, to: &record)
                assets.append(record)
            }

            for edit in contents.editedAssets {
                guard let index = assets.firstIndex(where: { $0.localIdentifier == edit.localIdentifier }) else {
                    if let error = stale([edit.localIdentifier]) { return error }
                    continue
                }
                Self.apply(edit.properties, to: &assets[index])
                assets[index].modificationDate = now
                assets[index].revision += 1
            }

            let knownAssets = Set(assets.map(\.localIdentifier))
            for edit in contents.editedAlbums {
                guard let index = albums.firstIndex(where: { $0.localIdentifier == edit.localIdentifier }) else {
                    if let error = stale([edit.localIdentifier]) { return error }
                    continue
                }
                if let title = edit.title { albums[index].title = title }
                albums[index].revision += 1
                for operation in edit.memberOperations {
                    let missing = operation.assetIdentifiers.filter { !knownAssets.contains($0) }
                    if !missing.isEmpty, let error = stale(missing) { return error }
                    guard Self.apply(operation, to: &albums[index].assetIdentifiers, known: knownAssets) else {
                        return PHPhotosError(.changeNotSupported)
                    }
                }
            }

            let deletedAssets = Set(contents.deletedAssets)
            if !deletedAssets.isEmpty {
                assets.removeAll { deletedAssets.contains($0.localIdentifier) }
                for index in albums.indices where albums[index].assetIdentifiers.contains(where: deletedAssets.contains)
                {
                    albums[index].assetIdentifiers.removeAll { deletedAssets.contains($0) }
                    albums[index].revision += 1
                }
            }
            let deletedAlbums = Set(contents.deletedAlbums)
            albums.removeAll { deletedAlbums.contains($0.localIdentifier) }
            return nil
        }

        /// The error for references to missing objects under the stale-reference policy.
        private func stale(_ identifiers: [String]) -> PHPhotosError? {
            guard case .fail(let code) = staleReferencePolicy else { return nil }
            return PHPhotosError(code, userInfo: [PHLocalIdentifiersErrorKey: identifiers])
        }

        /// Stores a loaded resource, generating a filename when none was given or inferred.
        private mutating func store(_ loaded: LoadedResource) -> SimulatedResource {
            let filename: String
            if let name = loaded.originalFilename {
                filename = name
            } else {
                generatedFilenames += 1
                let ext = SimulatedResource.filenameExtension(
                    for: loaded.type, uniformTypeIdentifier: loaded.uniformTypeIdentifier)
                filename = String(format: "IMG_%04d.", generatedFilenames) + ext
            }
            return SimulatedResource(
                type: loaded.type, originalFilename: filename,
                uniformTypeIdentifier: loaded.uniformTypeIdentifier
                    ?? SimulatedResource.uniformTypeIdentifier(forFilename: filename),
                data: loaded.data, sourceFileURL: loaded.sourceFileURL, movedSourceFile: loaded.shouldMoveFile
            )
        }

        private static func apply(_ properties: ChangeContents.AssetProperties, to record: inout AssetRecord) {
            if let creationDate = properties.creationDate { record.creationDate = creationDate }
            if let location = properties.location { record.location = location }
            if let isFavorite = properties.isFavorite { record.isFavorite = isFavorite }
            if let isHidden = properties.isHidden { record.isHidden = isHidden }
        }

        /// Applies a membership change; `false` when an index is out of range. References to
        /// unknown assets were already handled by the stale-reference policy and are skipped.
        private static func apply(
            _ operation: ChangeContents.MemberOperation, to members: inout [String], known: Set<String>
        ) -> Bool {
            switch operation {
            case .add(let ids):
                for id in ids where known.contains(id) && !members.contains(id) { members.append(id) }
            case .insert(let ids, let indexes):
                for (id, index) in zip(ids, indexes) where known.contains(id) {
                    members.removeAll { $0 == id }
                    guard index <= members.count else { return false }
                    members.insert(id, at: index)
                }
            case .remove(let ids):
                members.removeAll { ids.contains($0) }
            case .removeAt(let indexes):
                guard indexes.allSatisfy({ $0 < members.count }) else { return false }
                for index in indexes.reversed() { members.remove(at: index) }
            case .replace(let indexes, let ids):
                guard indexes.allSatisfy({ $0 < members.count }) else { return false }
                for (index, id) in zip(indexes, ids) where known.contains(id) { members[index] = id }
            case .move(let indexes, let destination):
                guard indexes.allSatisfy({ $0 < members.count }) else { return false }
                let moving = indexes.map { members[$0] }
                for index in indexes.reversed() { members.remove(at: index) }
                guard destination <= members.count else { return false }
                members.insert(contentsOf: moving, at: destination)
            }
            return true
        }
    }
#endif
