import AlbumKitPreviews
import Foundation

/// The duplicates of a library (or of one album): every photo's perceptual hashes, taken from the
/// cache (``PerceptualHashStore``) or computed on the thumbnail path, then sorted into classes by
/// ``DuplicateFinder``.
///
/// A hash is computed from the photo's thumbnail as the library renders it (256 pixels on its long
/// side; the same thumbnail a grid shows, so no other decode where thumbnails are made anyway): the
/// thumbnail reduced to 9 × 8 and 32 × 32 grey pixels by libvips. Videos and files no decoder
/// reads have no hash and are compared by their bytes alone.
///
/// ```swift
/// let search = try await DuplicateSearch.run(in: library, albumTitled: nil)
/// for group in search.groups { print(group.kind, group.members.map(\.name)) }
/// ```
package struct DuplicateSearch: Sendable {
    /// The groups found, same file first, then same picture, then similar.
    package var groups: [DuplicateGroup]
    /// How many assets were compared.
    package var assetCount: Int
    /// Hashes computed in this run.
    package var computed: Int
    /// Hashes taken from the cache.
    package var reused: Int
    /// Photos whose hashes could not be computed: the file's name and why.
    package var failures: [(name: String, reason: String)]

    /// The thumbnail's size a hash is computed from.
    package static let thumbnailSize = 256

    /// Searches `library`, or the album titled `albumTitle` in it.
    ///
    /// - Throws: `.albumNotFound`; `.notSupported` when libvips is missing (naming libvips42) and some
    ///   photo has no cached hash; the library's errors listing assets.
    package static func run(in library: PhotoLibrary, albumTitled albumTitle: String?) async throws -> DuplicateSearch {
        let backend = try await library.backend
        var albumsOfAsset: [String: [String]] = [:]
        var assets: [AssetInfo] = []
        for album in try await library.albums() {
            let members = try await library.assets(inAlbumWithID: album.id)
            for asset in members { albumsOfAsset[asset.id, default: []].append(album.title) }
            if let albumTitle, album.title == albumTitle { assets += members }
        }
        if let albumTitle {
            guard try await library.albums().contains(where: { $0.title == albumTitle }) else {
                throw AlbumError(.albumNotFound, "There is no album titled \"\(albumTitle)\".", albumTitle: albumTitle)
            }
        } else {
            for try await asset in library.allAssets(orderedBy: .dateAdded) { assets.append(asset) }
        }
        // A folder library lists no SHA-256: it hashes the files it holds (kept in its own cache).
        if let copies = backend as? any StoredCopyReading {
            for index in assets.indices where assets[index].sha256 == nil {
                guard let sha = try await copies.storedSHA256(ofAssetWithID: assets[index].id) else { continue }
                let asset = assets[index]
                var known = AssetInfo(
                    id: asset.id, originalFilename: asset.originalFilename, kind: asset.kind, byteSize: asset.byteSize,
                    addedAt: asset.addedAt, sha256: sha, fileURL: asset.fileURL, metadata: asset.metadata,
                    pixelWidth: asset.pixelWidth, pixelHeight: asset.pixelHeight, duration: asset.duration,
                    capturedAt: asset.capturedAt, location: asset.location, isFavorite: asset.isFavorite,
                    isDateAddedKnown: asset.dateAdded != nil, savedBy: asset.savedBy)
                known.companions = asset.companions
                assets[index] = known
            }
        }
        var store = PerceptualHashStore.forLibrary(
            backend.libraryFolder, environment: LibraryConfiguration.current.environment)
        do { try store?.load() } catch {
            // A cache that cannot be read is an empty cache: every hash is computed again.
            store = store.map { PerceptualHashStore(folder: $0.folder, name: $0.name) }
        }
        var hashes: [String: PerceptualHash] = [:]
        var reused = 0
        var missing: [AssetInfo] = []
        for asset in assets where asset.kind == .photo {
            if let sha = asset.sha256, let hash = store?[sha] {
                hashes[asset.id] = hash
                reused += 1
            } else {
                missing.append(asset)
            }
        }
        var failures: [(name: String, reason: String)] = []
        if !missing.isEmpty {
            let renderer: PreviewRenderer
            do { renderer = try PreviewRenderer.load() } catch {
                throw AlbumError(
                    .notSupported,
                    "Finding duplicates decodes photos with libvips: \(error.reason) (apt-get install \(PreviewRenderer.decoderPackage)).",
                    underlying: error)
            }
            let computed = Locked([String: Result<PerceptualHash, AlbumError>]())
            // A few photos at a time: each reads a file and decodes it on the blocking threads.
            let width = max(1, Blocking.width)
            for start in stride(from: 0, to: missing.count, by: width * 4) {
                let batch = Array(missing[start..<min(missing.count, start + width * 4)])
                await withTaskGroup(of: Void.self) { group in
                    for asset in batch {
                        group.addTask {
                            let result: Result<PerceptualHash, AlbumError>
                            do {
                                result = .success(try await hash(of: asset, in: library, renderer: renderer))
                            } catch let error as AlbumError {
                                result = .failure(error)
                            } catch {
                                result = .failure(AlbumError(.fileUnreadable, "\(error)"))
                            }
                            computed.withLock { $0[asset.id] = result }
                        }
                    }
                }
            }
            for asset in missing {
                switch computed.withLock({ $0[asset.id] }) {
                case .success(let hash)?:
                    hashes[asset.id] = hash
                    if let sha = asset.sha256 { store?[sha] = hash }
                case .failure(let error)?:
                    failures.append((asset.originalFilename ?? asset.id, error.message))
                case nil:
                    break
                }
            }
            do { try store?.saveIfChanged() } catch {
                // The cache is only a cache: hashes not kept are computed again next time.
            }
        }
        let candidates = assets.map { asset in
            DuplicateCandidate(asset: asset, hash: hashes[asset.id], albums: albumsOfAsset[asset.id] ?? [])
        }
        return DuplicateSearch(
            groups: await DuplicateFinder().groups(of: candidates), assetCount: assets.count,
            computed: hashes.count - reused, reused: reused, failures: failures)
    }

    /// The hashes of one photo, from the thumbnail the library renders, else from its original's
    /// bytes rendered to a thumbnail here.
    static func hash(of asset: AssetInfo, in library: PhotoLibrary, renderer: PreviewRenderer) async throws
        -> PerceptualHash
    {
        let name = asset.originalFilename ?? asset.id
        var thumbnail: [UInt8]?
        if let rendered = try await library.thumbnail(forAssetWithID: asset.id, maxPixelSize: thumbnailSize),
            !rendered.isEmbedded
        {
            thumbnail = Array(rendered.data)
        }
        if thumbnail == nil {
            // Read and rendered on the library's reading thread.
            guard let reading = try await library.backend as? any OriginalReading,
                let rendered = try await reading.readOriginal(
                    ofAssetWithID: asset.id,
                    { source -> [UInt8] in
                        var bytes: [UInt8] = []
                        bytes.reserveCapacity(Int(clamping: source.size))
                        while UInt64(bytes.count) < source.size {
                            let chunk = try source.read(at: UInt64(bytes.count), count: 1 << 20)
                            guard !chunk.isEmpty else {
                                throw AlbumError(
                                    .fileUnreadable, "\(name) ended after \(bytes.count) of its \(source.size) bytes.",
                                    file: name)
                            }
                            bytes += chunk
                        }
                        do {
                            return try renderer.render(.bytes(bytes), maxPixelSize: thumbnailSize).bytes
                        } catch let error as PreviewError {
                            throw AlbumError(.corruptMedia, "\(name) cannot be decoded: \(error.reason)", file: name)
                        }
                    })
            else {
                throw AlbumError(.notSupported, "\(name): this library gives no thumbnail to hash.", file: name)
            }
            thumbnail = rendered
        }
        return try hash(ofThumbnail: thumbnail ?? [], name: name, renderer: renderer)
    }

    /// The hashes of a picture file's bytes (`encoded`): rendered to a thumbnail as the library
    /// renders one, then hashed.
    package static func hash(ofPicture encoded: [UInt8], name: String, renderer: PreviewRenderer) throws
        -> PerceptualHash
    {
        let thumbnail: [UInt8]
        do { thumbnail = try renderer.render(.bytes(encoded), maxPixelSize: thumbnailSize).bytes } catch {
            throw AlbumError(.corruptMedia, "\(name) cannot be decoded: \(error.reason)", file: name)
        }
        return try hash(ofThumbnail: thumbnail, name: name, renderer: renderer)
    }

    /// The hashes of a rendered thumbnail: reduced to 9 × 8 and 32 × 32 grey pixels by libvips.
    static func hash(ofThumbnail thumbnail: [UInt8], name: String, renderer: PreviewRenderer) throws
        -> PerceptualHash
    {
        let source = PreviewSource.bytes(thumbnail)
        do {
            let small = try renderer.greyscale(source, width: 9, height: 8)
            let large = try renderer.greyscale(source, width: 32, height: 32)
            return PerceptualHash(
                differenceOf: try GrayscaleImage(width: 9, height: 8, pixels: small.samples),
                perceptualOf: try GrayscaleImage(width: 32, height: 32, pixels: large.samples))
        } catch let error as PreviewError {
            throw AlbumError(.corruptMedia, "\(name)'s thumbnail cannot be decoded: \(error.reason)", file: name)
        }
    }
}
