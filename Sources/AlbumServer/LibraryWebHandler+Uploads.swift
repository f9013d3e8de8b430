import AlbumKit
import AlbumKitCore
import AlbumKitMedia
import Foundation

/// Uploads into an album (draft-ietf-httpbis-resumable-upload): an upload is created, its offset
/// asked with `HEAD`, its bytes appended with `PATCH`, and when complete it is saved into the album
/// by the library's one save.
extension LibraryWebHandler {
    static let uploadHeaders: [(name: String, value: String)] = [
        ("Upload-Draft-Interop-Version", "6"), ("Cache-Control", "no-store"),
    ]

    /// `POST /api/uploads`: `X-Album-Title` (percent-encoded), `X-File-Name` (percent-encoded),
    /// `Upload-Length` when known, `Upload-Complete`; the body is the first piece (may be empty).
    ///
    /// A guest's upload (`link`) goes into the link's album, by its identifier, whatever title is sent.
    func createUpload(_ request: HTTPRequest, link: ShareLink? = nil) throws -> HTTPExchange {
        var title = request.header("X-Album-Title")?.removingPercentEncoding ?? ""
        if let link { title = try albumInfo(link.albumID).title }
        guard !title.isEmpty else {
            return .respond(Self.problem(400, "An upload needs the album's title (X-Album-Title)."))
        }
        // A title no album can have is refused before any byte is sent, not once the file has arrived.
        _ = try AlbumTitle(title)
        let name = request.header("X-File-Name")?.removingPercentEncoding ?? "upload"
        var length: UInt64?
        if let given = request.header("Upload-Length") {
            guard let parsed = UInt64(given) else {
                return .respond(Self.problem(400, "Upload-Length is not a number."))
            }
            length = parsed
        }
        let isSidecar = request.header("X-Sidecar") == "?1"
        if isSidecar {
            guard CompanionGrouping.isSidecar(name) else {
                return .respond(
                    Self.problem(
                        400, "\(name) is not a sidecar AlbumKit keeps (.xmp, .AAE): send it as a photo or video."))
            }
            guard let length, length <= Self.largestSidecar else {
                return .respond(
                    Self.problem(
                        413, "\(name) is not a sidecar of at most 16 MB with its length announced (Upload-Length)."))
            }
        }
        var companions: [String] = []
        if let given = request.header("X-Companions") {
            companions = given.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if let refusal = companionRefusal(companions, of: name, link: link) { return .respond(refusal) }
        }
        let created = try uploads.create(
            UploadStore.Description(
                albumTitle: title, name: name, length: length, albumID: link?.albumID, linkID: link?.id,
                isSidecar: isSidecar, companions: companions))
        return .receive(
            UploadAppend(handler: self, created: created, complete: request.header("Upload-Complete") == "?1"))
    }

    /// The largest sidecar taken (a sidecar is held in the uploads folder until its photo arrives).
    static let largestSidecar: UInt64 = 16 << 20

    /// Why the sidecar uploads `ids` cannot go with the photo `name` (not one, not complete, not
    /// this visitor's, more than 8); `nil` when they can.
    func companionRefusal(_ ids: [String], of name: String, link: ShareLink?) -> HTTPResponse? {
        guard ids.count <= 8 else { return Self.problem(400, "A photo takes at most 8 sidecars.") }
        for id in ids {
            guard let (description, size) = uploads.state(of: id), description.isSidecar == true,
                description.linkID == link?.id
            else {
                return Self.problem(400, "\(name) names a sidecar upload \(id) that is not one this page sent.")
            }
            guard description.length == size else {
                return Self.problem(409, "\(name)'s sidecar \(description.name) has not arrived whole yet.")
            }
        }
        return nil
    }

    func uploadOffset(_ id: String) -> HTTPResponse {
        guard let (description, offset) = uploads.state(of: id) else {
            return Self.problem(404, "There is no upload \(id) (finished, cancelled, or never started).")
        }
        var headers = Self.uploadHeaders + [("Upload-Offset", "\(offset)"), ("Upload-Complete", "?0")]
        if let length = description.length { headers.append(("Upload-Length", "\(length)")) }
        return HTTPResponse(status: 204, headers: headers)
    }

    func appendUpload(_ id: String, _ request: HTTPRequest) -> HTTPExchange {
        guard let given = request.header("Upload-Offset"), let offset = UInt64(given) else {
            return .respond(Self.problem(400, "An append needs Upload-Offset."))
        }
        do {
            return .receive(
                try UploadAppend(
                    handler: self, id: id, offset: offset, complete: request.header("Upload-Complete") == "?1"))
        } catch let conflict as UploadStore.Conflict {
            return .respond(
                Self.problem(409, "This piece does not follow the upload's end: \(conflict.reason).")
                    .adding("Upload-Offset", "\(conflict.offset)"))
        } catch {
            return .respond(Self.failure(error))
        }
    }

    /// Saves a complete upload into its album and removes it; the result as the browser shows it.
    func finishUpload(_ id: String) -> HTTPResponse {
        guard let (description, size) = uploads.state(of: id) else {
            return Self.problem(404, "There is no upload \(id).")
        }
        if let length = description.length, length != size {
            return Self.problem(400, "\(description.name) is incomplete: \(size) of its \(length) bytes arrived.")
                .adding("Upload-Offset", "\(size)")
        }
        if let linkID = description.linkID, let refusal = closedForUploads(linkID) {
            uploads.remove(id)
            return refusal
        }
        if description.isSidecar == true {
            // Kept until its photo's upload names it (a lone one goes with the abandoned uploads).
            return Self.json([
                "name": description.name, "result": "kept for its photo", "upload": id,
            ]).adding("Upload-Complete", "?1").adding("Upload-Offset", "\(size)")
        }
        let sidecars = (description.companions ?? []).compactMap { companion -> MediaCompanion? in
            guard let (kept, _) = uploads.state(of: companion), kept.isSidecar == true else { return nil }
            return .sidecar(URL(fileURLWithPath: uploads.dataPath(companion, kept)))
        }
        defer { for companion in description.companions ?? [] { uploads.remove(companion) } }
        let path = uploads.dataPath(id, description)
        let library = self.library
        let outcome: [String: Any]
        do {
            let saved = try Waiting.result {
                // A guest's upload goes into its link's album by identifier: never another album
                // with the same title, never a new one.
                var album = library.album(titled: description.albumTitle)
                if let id = description.albumID {
                    album = try await library.album(withID: id, accessPolicy: .requireAlbum)
                }
                let saved = try await album.save(.file(URL(fileURLWithPath: path)).with(companions: sidecars))
                await library.makeThumbnailsInBackground(ofAssetsWithIDs: [saved.assetID])  // not waited for
                return saved
            }
            outcome = [
                "name": description.name, "result": saved.isExisting ? "already in the library" : "saved",
                "asset": saved.assetID, "album": saved.albumID ?? NSNull(),
                "sidecars": sidecars.map(\.fileName).filter { !saved.companionsLeftOut.contains($0) },
            ]
        } catch let error as AlbumError {
            uploads.remove(id)
            let result =
                switch error.code {
                case .notMedia, .unsupportedMedia: "not a photo or video"
                case .corruptMedia: "damaged"
                default: "not saved"
                }
            let status = [.notMedia, .unsupportedMedia, .corruptMedia].contains(error.code) ? 415 : 500
            let message = error.message.replacingOccurrences(of: uploads.folder + "/" + id + "/", with: "")
            return Self.json(["name": description.name, "result": result, "error": message], status: status)
        } catch {
            uploads.remove(id)
            return Self.failure(error)
        }
        uploads.remove(id)
        return Self.json(outcome).adding("Upload-Complete", "?1").adding("Upload-Offset", "\(size)")
    }
}
