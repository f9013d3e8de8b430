import AlbumKit
import AlbumKitCore
import AlbumKitMedia
import Foundation

/// The grid's thumbnails: one at a time (`/api/thumbnail?asset=ID`, kept by the browser and
/// answered `304 Not Modified` while its bytes are the same), or the thumbnails of a run of the
/// album's places in one answer (`/api/thumbnails`), so that a screen of the grid is one request
/// instead of sixty waiting for the browser's six connections.
extension LibraryWebHandler {
    /// The most thumbnails one `/api/thumbnails` answer holds.
    static let thumbnailRun = 200

    /// `GET /api/thumbnails?album=ID&offset=N&limit=M&order=added|taken`: the thumbnails of the
    /// album's places `N` to `N + M - 1`, one after another in one body. It starts with a line of
    /// JSON saying what follows, then the images' bytes in that order:
    ///
    /// ```
    /// {"count":100000,"offset":40,"items":[{"id":"…","type":"image/jpeg","size":5120},{"id":"…","size":0}]}\n
    /// <5120 bytes of JPEG>…
    /// ```
    ///
    /// An item of size 0 has no thumbnail (a video without FFmpeg, a damaged photo): the grid keeps
    /// its cell. The places are read again here, so the items carry their assets' identifiers: a
    /// page that listed the album before a change draws each thumbnail in its own asset's cell.
    func thumbnails(_ albumID: String, _ request: HTTPRequest) throws -> HTTPResponse {
        let album = try albumInfo(albumID)
        let offset = max(0, Int(request.query["offset"] ?? "0") ?? 0)
        let limit = min(Self.thumbnailRun, max(1, Int(request.query["limit"] ?? "60") ?? 60))
        let order: AssetOrder = request.query["order"] == "taken" ? .captureDate : .dateAdded
        let library = self.library
        let (slice, images) = try Waiting.result {
            let slice = try await AlbumPositions.assets(
                of: library, album: album.id, order: order, from: offset, limit: limit)
            let images = try await Self.thumbnails(of: slice.assets.map(\.id), in: library)
            return (slice, images)
        }
        var items: [String] = []
        var body: [UInt8] = []
        for (asset, image) in zip(slice.assets, images) {
            let type = image.map { "\"type\":\(Self.jsonString(Self.mimeType($0.format)))," } ?? ""
            items.append("{\"id\":\(Self.jsonString(asset.id)),\(type)\"size\":\(image?.data.count ?? 0)}")
            if let image { body += image.data }
        }
        let head = "{\"count\":\(slice.albumCount),\"offset\":\(offset),\"items\":[\(items.joined(separator: ","))]}\n"
        return HTTPResponse(
            status: 200,
            headers: [
                ("Content-Type", "application/octet-stream"), ("Cache-Control", "no-store"),
                ("X-Content-Type-Options", "nosniff"),
            ],
            body: .bytes(Array(head.utf8) + body))
    }

    /// The thumbnails of `ids`, in their order (`nil` where there is none to draw), made a few at
    /// a time: a library keeping them reads each back, one making them now uses every core.
    static func thumbnails(of ids: [String], in library: PhotoLibrary) async throws -> [AssetThumbnail?] {
        try await withThrowingTaskGroup(of: (Int, AssetThumbnail?).self) { group in
            var found = [AssetThumbnail?](repeating: nil, count: ids.count)
            var next = 0
            func start() {
                guard next < ids.count else { return }
                let (index, id) = (next, ids[next])
                next += 1
                group.addTask { (index, try await drawable(library, id)) }
            }
            for _ in 0..<min(ids.count, max(2, Blocking.width)) { start() }
            while let (index, image) = try await group.next() {
                found[index] = image
                start()
            }
            return found
        }
    }

    /// The asset's thumbnail, or `nil` when it has none to draw (as `/api/thumbnail` answers the
    /// placeholder).
    static func drawable(_ library: PhotoLibrary, _ id: String) async throws -> AssetThumbnail? {
        do {
            return try await library.thumbnail(forAssetWithID: id, maxPixelSize: 256)
        } catch let error as AlbumError where error.code == .notSupported || error.code == .corruptMedia {
            return nil
        }
    }

    func thumbnail(_ id: String, ifNoneMatch: String? = nil) throws -> HTTPResponse {
        guard Self.isIdentifier(id) else { return Self.problem(404, "There is no asset \(id).") }
        let library = self.library
        let found = try Waiting.result { try await Self.drawable(library, id) }
        guard let found else { return Self.placeholder }
        // Named by its bytes: the browser asks again with the tag and gets 304 while it is the same.
        let tag = Self.entityTag(of: found.data)
        let headers: [(name: String, value: String)] = [("ETag", tag), ("Cache-Control", "private, max-age=86400")]
        if let ifNoneMatch,
            ifNoneMatch.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == tag })
        {
            return HTTPResponse(status: 304, headers: headers)
        }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", Self.mimeType(found.format))] + headers,
            body: .bytes(Array(found.data)))
    }

    /// A tag naming `bytes` (64-bit FNV-1a and the length): it changes when they do. Not a proof
    /// against forgery, which a cache of one's own thumbnails does not need.
    static func entityTag(of bytes: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        // Through the buffer: Data's own iterator took longer than the rest of the answer.
        bytes.withUnsafeBytes { buffer in
            for byte in buffer { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        return "\"" + String(hash, radix: 16) + "-" + String(bytes.count, radix: 16) + "\""
    }
}
