import AlbumKitCore
import Foundation

#if canImport(Photos)
    import CoreLocation
    import Photos
#else
    import PhotoKitSimulator
#endif
#if canImport(UIKit)
    import UIKit
#endif

/// The Apple system library, through PhotoKit. The same source compiles against Photos on Apple
/// platforms and against `PhotoKitSimulator` on Linux, where it is tested.
///
/// One `performChanges` per save: the album's creation request (when needed), the asset creation
/// requests from the original bytes or files, and the membership — one atomic change block. Results
/// come from the placeholders; nothing is re-fetched to decide success.
///
/// The raw of a pair and an `.AAE` are kept as resources of the asset (``CompanionKeeping``); other
/// companions are reported as left out (``Staged/leftOut``).
package final class PhotoKitBackend:
    LibraryBackend, AccessControl, AlbumEditing, ChangeFeed, CompanionKeeping, LibraryVerifying
{
    package let identity = "photokit"
    package let libraryName = "Photos"

    /// Video containers Photos does not import: refused before any permission prompt.
    package let unsupportedFormats: Set<MediaFormat> = [.webm, .mkv, .avi, .mpegTS, .m2ts]
    private let store: any AlbumIdentifierStore

    package init(store: any AlbumIdentifierStore = UserDefaultsAlbumStore()) {
        self.store = store
    }

    private var library: PHPhotoLibrary { PHPhotoLibrary.shared() }

    // MARK: Access

    package func albumUnavailableReason(needsAlbum: Bool) async throws -> String? {
        // Ask for read-write only when an album is involved; add-only is enough otherwise.
        let level: PHAccessLevel = needsAlbum ? .readWrite : .addOnly
        var status = PHPhotoLibrary.authorizationStatus(for: level)
        if status == .notDetermined { status = await PHPhotoLibrary.requestAuthorization(for: level) }
        switch status {
        case .authorized, .limited:
            // Apple documents nothing about albums under limited access (public reports say apps
            // can create them): try with the access the user gave; `commit` maps a refusal.
            return nil
        case .denied, .restricted, .notDetermined:
            if needsAlbum {
                // The user may still allow adding photos: then only the album is unavailable.
                var addOnly = PHPhotoLibrary.authorizationStatus(for: .addOnly)
                if addOnly == .notDetermined { addOnly = await PHPhotoLibrary.requestAuthorization(for: .addOnly) }
                if addOnly == .authorized || addOnly == .limited {
                    return "the app may only add photos (add-only access), not use albums"
                }
            }
            throw Self.accessError(status)
        @unknown default:
            throw Self.accessError(status)
        }
    }

    package func access(for level: PhotoLibraryAccessLevel) async -> PhotoLibraryAccess {
        Self.access(PHPhotoLibrary.authorizationStatus(for: Self.accessLevel(level)))
    }

    package func currentAccess(for level: PhotoLibraryAccessLevel) -> PhotoLibraryAccess {
        Self.access(PHPhotoLibrary.authorizationStatus(for: Self.accessLevel(level)))
    }

    package func requestAccess(for level: PhotoLibraryAccessLevel) async -> PhotoLibraryAccess {
        Self.access(await PHPhotoLibrary.requestAuthorization(for: Self.accessLevel(level)))
    }

    static func accessLevel(_ level: PhotoLibraryAccessLevel) -> PHAccessLevel {
        switch level {
        case .addOnly: .addOnly
        case .readWrite: .readWrite
        }
    }

    static func access(_ status: PHAuthorizationStatus) -> PhotoLibraryAccess {
        switch status {
        case .notDetermined: .notDetermined
        case .restricted: .restricted
        case .denied: .denied
        case .authorized: .authorized
        case .limited: .limited
        @unknown default: .denied
        }
    }

    // MARK: Changes

    /// Photos' change observer: every change arrives as Photos reports it (no polling).
    package func changes(polling interval: Duration) -> AsyncThrowingStream<LibraryChange, any Error> {
        PhotoKitChangeObserver.changes()
    }

    private static func accessError(_ status: PHAuthorizationStatus) -> AlbumError {
        let restricted = status == .restricted
        return AlbumError(
            .accessDenied,
            restricted
                ? "Access to the photo library is restricted on this device (parental controls or management); nothing was saved."
                : "Access to the photo library was denied; allow it in Settings › Privacy › Photos. Nothing was saved.")
    }

    // MARK: Staging

    /// Validated media ready for a creation request.
    package struct Staged: Sendable {
        struct Resource: Sendable {
            /// `alternatePhoto`: the raw of a RAW+JPEG pair (Apple's documented use of the type);
            /// `adjustmentData`: an `.AAE` sidecar (the edits Photos records with a photo).
            enum Role: Sendable { case photo, video, pairedVideo, alternatePhoto, adjustmentData }
            enum Source: Sendable {
                case file(URL)
                case data(Data)
            }
            let role: Role
            let source: Source
            let originalFilename: String?
        }
        var resources: [Resource]
        let metadata: MediaMetadata?
        /// The caller's descriptions: creation date, location, favourite, move instead of copy.
        var media: Media? = nil
        /// The names of the companions Photos has no resource type for (`.xmp` sidecars, a second
        /// raw or `.AAE`): reported as left out, left where they are.
        var leftOut: [String] = []
    }

    package func stage(_ media: Media) async throws -> Staged {
        var staged = try await Blocking.run { try self.stageNow(media) }
        staged.media = media
        // Companions of in-memory data or a Live Photo have no resource of their own here.
        if media.fileURL == nil { staged.leftOut = media.companions.map(\.fileName) }
        return staged
    }

    private func stageNow(_ media: Media) throws -> Staged {
        typealias Resource = Staged.Resource
        switch media.source {
        case .file, .path:
            let url = media.fileURL ?? URL(fileURLWithPath: media.displayName)
            let metadata = try supported(MediaReader(media).metadata, name: url.path)
            var staged = Staged(
                resources: [
                    Resource(
                        role: metadata.kind == .video ? .video : .photo, source: .file(url),
                        originalFilename: url.lastPathComponent)
                ], metadata: metadata)
            for companion in media.companions {
                let role = Self.resourceRole(of: companion, primaryIsPhoto: metadata.kind == .photo)
                if let role, !staged.resources.contains(where: { $0.role == role }) {
                    staged.resources.append(
                        Resource(
                            role: role, source: .file(URL(fileURLWithPath: companion.path.description)),
                            originalFilename: companion.fileName))
                } else {
                    staged.leftOut.append(companion.fileName)
                }
            }
            return staged
        case .data(let data, let filename):
            let metadata = try supported(MediaReader(media).metadata, name: filename ?? "(data)")
            return Staged(
                resources: [
                    Resource(
                        role: metadata.kind == .video ? .video : .photo, source: .data(data),
                        originalFilename: filename ?? "IMG.\(metadata.format.fileExtension)")
                ], metadata: metadata)
        case .livePhoto(let photo, let video):
            let still = try MediaReader.livePhotoMetadata(photo: photo, video: video)
            return Staged(
                resources: [
                    Resource(role: .photo, source: .file(photo), originalFilename: photo.lastPathComponent),
                    Resource(role: .pairedVideo, source: .file(video), originalFilename: video.lastPathComponent),
                ], metadata: still)
        }
    }

    /// The resource type Photos keeps `companion` as beside a photo (`primaryIsPhoto`) or video:
    /// the raw of a pair as `.alternatePhoto` (a photo's only), an `.AAE` as `.adjustmentData`;
    /// `nil` for a sidecar Photos has no type for (`.xmp`).
    static func resourceRole(of companion: MediaCompanion, primaryIsPhoto: Bool) -> Staged.Resource.Role? {
        switch companion.role {
        case .raw: return primaryIsPhoto ? .alternatePhoto : nil
        case .sidecar:
            return (companion.fileName as NSString).pathExtension.lowercased() == "aae" ? .adjustmentData : nil
        }
    }

    /// `metadata`, unless Photos cannot import its format (the saver refuses those earlier; this
    /// keeps staging honest when called on its own).
    private func supported(_ metadata: MediaMetadata, name: String) throws -> MediaMetadata {
        guard unsupportedFormats.contains(metadata.format) else { return metadata }
        throw AlbumError(
            .unsupportedMedia,
            "\(name) is a \(metadata.format.displayName) video, which Photos cannot hold; convert it to MP4. Nothing was saved for it.",
            file: name)
    }

    package func discard(_ staged: Staged) async {}

    // MARK: Committing

    /// What the change block learnt, handed back from Photos' queue.
    private struct BlockResult: Sendable {
        var assetIDs: [String] = []
        var albumID: String?
        var vanished = false
    }

    package func commit(_ staged: [Staged], to album: AlbumRequest?) async throws -> CommitReceipt {
        var resolution: AlbumResolution?
        var collection: PHAssetCollection?
        if let album {
            let directory = PhotoKitAlbumDirectory(store: store)
            let resolved = try album.resolve(in: directory)
            resolution = resolved
            if case .existing(let id) = resolved {
                collection = Self.usableAlbum(id)
                if collection == nil { throw AlbumVanished(albumID: id) }
            }
        }
        let result = Locked(BlockResult())
        let title = album?.title.text
        let target = collection
        let creating: Bool = {
            if case .create = resolution { return true }
            return false
        }()
        do {
            try await library.performChanges {
                var collectionRequest: PHAssetCollectionChangeRequest?
                if let target {
                    // Photos raises an exception when a collection does not allow the change, and
                    // the initializer may return nil for undocumented reasons: check both.
                    guard target.canPerform(.addContent), let request = PHAssetCollectionChangeRequest(for: target)
                    else {
                        result.withLock { $0.vanished = true }
                        return
                    }
                    collectionRequest = request
                    result.withLock { $0.albumID = target.localIdentifier }
                } else if creating, let title {
                    let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
                    collectionRequest = request
                    let id = request.placeholderForCreatedAssetCollection.localIdentifier
                    result.withLock { $0.albumID = id }
                }
                var placeholders: [PHObjectPlaceholder] = []
                for item in staged {
                    let request = PHAssetCreationRequest.forAsset()
                    if let media = item.media {
                        if let date = media.creationDate { request.creationDate = date }
                        if let location = media.location { request.location = Self.location(location) }
                        if media.isFavorite { request.isFavorite = true }
                    }
                    for resource in item.resources {
                        let options = PHAssetResourceCreationOptions()
                        options.originalFilename = resource.originalFilename
                        if case .file = resource.source, item.media?.movesFile == true {
                            // Photos moves the app's file into the library once the change commits.
                            options.shouldMoveFile = true
                        }
                        let type: PHAssetResourceType =
                            switch resource.role {
                            case .photo: .photo
                            case .video: .video
                            case .pairedVideo: .pairedVideo
                            case .alternatePhoto: .alternatePhoto
                            case .adjustmentData: .adjustmentData
                            }
                        switch resource.source {
                        case .file(let url): request.addResource(with: type, fileURL: url, options: options)
                        case .data(let data): request.addResource(with: type, data: data, options: options)
                        }
                    }
                    if let placeholder = request.placeholderForCreatedAsset { placeholders.append(placeholder) }
                }
                let ids = placeholders.map(\.localIdentifier)
                result.withLock { $0.assetIDs = ids }
                collectionRequest?.addAssets(placeholders as NSArray)
            }
        } catch {
            if let target, Self.albumFailed(target.localIdentifier, error) {
                // The saver resolves the album once more and retries (a deleted album may surface
                // as any error that names it, not only `identifierNotFound`).
                throw AlbumVanished(albumID: target.localIdentifier)
            }
            if let album, let refusal = Self.limitedAccessRefusal(error) {
                throw AlbumRefused(albumTitle: album.title.text, reason: refusal)
            }
            throw Self.map(error, items: staged)
        }
        let outcome = result.withLock { $0 }
        if outcome.vanished, let target { throw AlbumVanished(albumID: target.localIdentifier) }
        guard outcome.assetIDs.count == staged.count else {
            throw AlbumError(.ioFailure, "Photos did not create the assets; nothing was saved.")
        }
        if let album, let target, Self.collection(target.localIdentifier) == nil {
            // The album vanished while Photos committed and Photos kept the assets without it:
            // put them into a recreated album rather than leave them outside it.
            let albumID = try await recreateAlbum(album.title, containing: outcome.assetIDs)
            store.remember(albumID, forTitleKey: album.title.key)
            return CommitReceipt(
                albumID: albumID, albumOutcome: .recreated,
                assets: zip(outcome.assetIDs, staged).map {
                    .success(CommittedAsset(assetID: $0, metadata: $1.metadata, companionsLeftOut: $1.leftOut))
                })
        }
        var albumOutcome: AlbumOutcome?
        if let album, let resolution, let albumID = outcome.albumID {
            store.remember(albumID, forTitleKey: album.title.key)
            albumOutcome = resolution.outcome
        }
        return CommitReceipt(
            albumID: outcome.albumID, albumOutcome: albumOutcome,
            assets: zip(outcome.assetIDs, staged).map {
                .success(CommittedAsset(assetID: $0, metadata: $1.metadata, companionsLeftOut: $1.leftOut))
            })
    }

    /// `location` as CoreLocation's type (altitude 0 and vertical accuracy invalid when unknown).
    static func location(_ location: GeoLocation) -> CLLocation {
        CLLocation(
            coordinate: CLLocationCoordinate2D(latitude: location.latitude, longitude: location.longitude),
            altitude: location.altitude ?? 0, horizontalAccuracy: 0,
            verticalAccuracy: location.altitude == nil ? -1 : 0,
            timestamp: Date())
    }

    /// Creates an album titled `title` holding the existing assets `assetIDs`, in one change block.
    private func recreateAlbum(_ title: AlbumTitle, containing assetIDs: [String]) async throws -> String {
        let assets = PHAsset.fetchAssets(withLocalIdentifiers: assetIDs, options: nil)
        let created = Locked<String?>(nil)
        do {
            try await library.performChanges {
                let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title.text)
                request.addAssets(assets)
                let id = request.placeholderForCreatedAssetCollection.localIdentifier
                created.withLock { $0 = id }
            }
        } catch {
            throw Self.map(error, items: [])
        }
        guard let id = created.withLock({ $0 }) else {
            throw AlbumError(.albumUnavailable, "Photos did not recreate the album \"\(title.text)\".")
        }
        return id
    }

    /// Whether a failed commit into album `id` calls for resolving the album again: the error is
    /// `identifierNotFound`, names the album in `PHLocalIdentifiersErrorKey`, or the album no
    /// longer resolves to one AlbumKit may use.
    static func albumFailed(_ id: String, _ error: any Error) -> Bool {
        if (error as? PHPhotosError)?.code == .identifierNotFound { return true }
        let named = (error as NSError).userInfo[PHLocalIdentifiersErrorKey] as? [String] ?? []
        return named.contains(id) || usableAlbum(id) == nil
    }

    /// The reason a commit with an album failed under limited access, when that is what happened:
    /// Photos refused a change with an access error while the user gave limited access.
    static func limitedAccessRefusal(_ error: any Error) -> String? {
        guard PHPhotoLibrary.authorizationStatus(for: .readWrite) == .limited,
            let code = (error as? PHPhotosError)?.code,
            code == .accessUserDenied || code == .accessRestricted || code == .changeNotSupported
        else { return nil }
        return "with limited photo access, Photos refused to use the album (error \(code.rawValue))"
    }

    /// Maps a Photos error onto an `AlbumError`, keeping it as the underlying error.
    static func map(_ error: any Error, items: [Staged]) -> AlbumError {
        if let error = error as? AlbumError { return error }
        guard let photos = error as? PHPhotosError else { return AlbumError.wrap(error) }
        let file = items.count == 1 ? items[0].resources.first?.originalFilename : nil
        let (code, message): (AlbumError.Code, String) =
            switch photos.code {
            case .accessUserDenied:
                (.accessDenied, "Access to the photo library was denied; allow it in Settings › Privacy › Photos.")
            case .accessRestricted:
                (.accessDenied, "Access to the photo library is restricted on this device.")
            case .notEnoughSpace:
                (.notEnoughSpace, "Not enough storage to save to Photos; free some space and try again.")
            case .invalidResource:
                (.corruptMedia, "Photos refused the media as invalid\(file.map { " (\($0))" } ?? "").")
            case .missingResource:
                (
                    .fileNotFound,
                    "A file to save went missing before Photos imported it\(file.map { " (\($0))" } ?? "")."
                )
            case .requestNotSupportedForAsset, .changeNotSupported:
                (.unsupportedMedia, "Photos does not support saving this media\(file.map { " (\($0))" } ?? "").")
            case .libraryVolumeOffline:
                (.libraryNotFound, "The photo library's disk is not connected; connect it and try again.")
            case .relinquishingLibraryBundleToWriter, .switchingSystemPhotoLibrary, .libraryInFileProviderSyncRoot:
                (.libraryUnwritable, "The system photo library is being moved or switched; try again later.")
            case .identifierNotFound, .multipleIdentifiersFound:
                (.albumUnavailable, "The album could not be found in Photos.")
            case .userCancelled:
                (.cancelled, "The save was cancelled.")
            default:
                (.ioFailure, "Photos could not save (error \(photos.code.rawValue)); try again.")
            }
        return AlbumError(code, message, file: file, underlying: photos)
    }

    // MARK: Albums

    /// The regular user albums, in the order of ``PhotoKitAlbumDirectory/precedes(_:_:)`` (Photos
    /// documents no fetch order and cannot sort albums by creation date).
    package func albums() async throws -> [AlbumInfo] {
        let collections = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .albumRegular, options: nil)
        return (0..<collections.count).map { collections.object(at: $0) }
            .sorted(by: PhotoKitAlbumDirectory.precedes).map(Self.info)
    }

    /// The album `id` when it is one ``albums()`` lists (a regular user album), fetched by its
    /// identifier.
    package func album(withID id: String) async throws -> AlbumInfo? {
        guard let collection = Self.collection(id), collection.assetCollectionType == .album,
            collection.assetCollectionSubtype == .albumRegular
        else { return nil }
        return Self.info(collection)
    }

    private static func info(_ collection: PHAssetCollection) -> AlbumInfo {
        AlbumInfo(
            id: collection.localIdentifier, title: collection.localizedTitle ?? "",
            count: PHAsset.fetchAssets(in: collection, options: nil).count)
    }

    package func findAlbum(titled title: AlbumTitle) async throws -> String? {
        try AlbumRequest(title: title).find(in: PhotoKitAlbumDirectory(store: store))
    }

    package func assets(inAlbumWithID id: String) async throws -> [AssetInfo] {
        guard let collection = Self.collection(id) else {
            throw AlbumError(.albumNotFound, "The album is no longer in Photos.")
        }
        let assets = PHAsset.fetchAssets(in: collection, options: nil)
        return (0..<assets.count).map { Self.info(assets.object(at: $0)) }
    }

    /// Finds the album (``AlbumRequest/resolve(in:)``) or creates it in a change block of its own.
    package func createAlbum(titled title: AlbumTitle) async throws -> (id: String, outcome: AlbumOutcome) {
        let resolution = try AlbumRequest(title: title).resolve(in: PhotoKitAlbumDirectory(store: store))
        if case .existing(let id) = resolution {
            store.remember(id, forTitleKey: title.key)
            return (id, .found)
        }
        let created = Locked<String?>(nil)
        do {
            try await library.performChanges {
                let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title.text)
                let id = request.placeholderForCreatedAssetCollection.localIdentifier
                created.withLock { $0 = id }
            }
        } catch { throw Self.map(error, items: []) }
        guard let id = created.withLock({ $0 }) else {
            throw AlbumError(.ioFailure, "Photos did not create the album.")
        }
        store.remember(id, forTitleKey: title.key)
        return (id, resolution.outcome)
    }

    package func renameAlbum(id: String, to title: AlbumTitle) async throws {
        let collection = try Self.editableAlbum(id, allowing: .rename, "renamed")
        let renamed = Locked(false)
        do {
            try await library.performChanges {
                guard let request = PHAssetCollectionChangeRequest(for: collection) else { return }
                request.title = title.text
                renamed.withLock { $0 = true }
            }
        } catch { throw Self.map(error, items: []) }
        guard renamed.withLock({ $0 }) else {
            // Nothing was renamed: the new title is not remembered either.
            throw AlbumError(
                .albumUnavailable, "Photos did not allow renaming the album \"\(collection.localizedTitle ?? "")\".",
                albumTitle: collection.localizedTitle)
        }
        store.remember(id, forTitleKey: title.key)
    }

    package func deleteAlbum(id: String, force: Bool) async throws {
        let collection = try Self.editableAlbum(id, allowing: .delete, "deleted")
        do {
            try await library.performChanges {
                PHAssetCollectionChangeRequest.deleteAssetCollections([collection] as NSArray)
            }
        } catch { throw Self.map(error, items: []) }
    }

    package func verify() async throws -> VerificationReport {
        // Photos owns its files; there is nothing AlbumKit can check beyond what Photos reports.
        let count = PHAsset.fetchAssets(with: nil).count
        return VerificationReport(checkedAssets: count, problems: [])
    }

    static func collection(_ id: String) -> PHAssetCollection? {
        PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [id], options: nil).firstObject
    }

    /// The album with identifier `id` when AlbumKit may use it: a regular user album that allows
    /// adding content. A smart album, a shared album or a folder (not an asset collection) found
    /// under a remembered identifier is never used.
    static func usableAlbum(_ id: String) -> PHAssetCollection? {
        guard let collection = collection(id), collection.assetCollectionType == .album,
            collection.assetCollectionSubtype == .albumRegular, collection.canPerform(.addContent)
        else { return nil }
        return collection
    }

    /// The regular album `id`, checked to allow `operation` (Photos raises an exception otherwise).
    private static func editableAlbum(
        _ id: String, allowing operation: PHCollectionEditOperation, _ verb: String
    ) throws -> PHAssetCollection {
        guard let collection = collection(id) else {
            throw AlbumError(.albumNotFound, "The album is no longer in Photos.")
        }
        guard collection.assetCollectionType == .album, collection.canPerform(operation) else {
            let title = collection.localizedTitle ?? ""
            throw AlbumError(
                .albumUnavailable, "Photos does not allow the album \"\(title)\" to be \(verb) by apps.",
                albumTitle: title)
        }
        return collection
    }
}
