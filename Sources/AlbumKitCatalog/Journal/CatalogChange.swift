import AlbumKitCore
import Foundation

/// One change to a catalog library, as its journal records it: the library *is* the sequence of
/// these, in order (``LibraryJournal``); the SQLite catalog is derived from them
/// (``CatalogIndex/apply(_:)``).
///
/// One case per operation, each with exactly the values it needs, so that an invalid record
/// cannot be written. Every decision (identifiers, times, which album a title leads to) is made
/// before the change is recorded, so replaying the journal gives the same library every time.
///
/// ```swift
/// let change = CatalogChange.createAlbum(id: "…", title: "Trips", createdAt: 1_700_000_000)
/// let line = change.json  // {"at":1700000000,"id":"…","op":"createAlbum","title":"Trips"}
/// ```
package enum CatalogChange: Equatable, Sendable {
    /// A new asset: its file under `originals/` is durable before this is recorded.
    case save(SavedAsset)
    case createAlbum(id: String, title: String, createdAt: Double)
    case renameAlbum(id: String, title: String)
    /// The album goes; its assets stay in the library, as in Photos.
    case deleteAlbum(id: String)
    /// `title` leads to the album `id` from now on (the album a title was last resolved to).
    case rememberAlbum(id: String, title: String)
    /// The assets are appended to the album, in order (those already in it stay where they are).
    case addToAlbum(album: String, assets: [String], at: Double)
    case removeFromAlbum(album: String, assets: [String])
    /// The assets move to the library's recently deleted: hidden, restorable, their files kept.
    case deleteAssets([String], at: Double)
    /// Recently deleted assets come back, in the albums they were in.
    case restoreAssets([String])
    /// Recently deleted assets go for good: their rows, and then their files.
    case purgeAssets([String])
    /// The asset's companions are now `companions` (a re-save brought a sidecar edited since, or
    /// one missing when it was saved): the new files are durable before this is recorded; the
    /// earlier files no longer listed go after it, as a purge's do.
    case setCompanions(asset: String, companions: [CatalogCompanion])
    /// `album repair` dealt with the damaged record at byte `offset` of the journal (adopted its
    /// file, if any): `verify` no longer reports it.
    case acknowledgeDamage(offset: Int64)

    /// The kind of a record: its `op` in the journal, as written on disk (never renamed: a library
    /// written before must read the same).
    package enum Operation: String, CaseIterable, Sendable {
        case save
        case createAlbum
        case renameAlbum
        case deleteAlbum
        case rememberAlbum
        case addToAlbum
        case removeFromAlbum
        case deleteAssets
        case restoreAssets
        case purgeAssets
        case setCompanions
        case acknowledgeDamage
    }

    /// A saved asset's values.
    package struct SavedAsset: Equatable, Sendable {
        package var id: String
        /// Below the library's folder: `originals/xx/ID.ext`.
        package var path: String
        package var originalName: String?
        package var byteSize: Int64
        package var sha256: String
        package var kind: String
        package var format: String
        /// When it was added (seconds since 1970).
        package var addedAt: Double
        /// ``MediaMetadata`` as JSON.
        package var metadata: String?
        /// Marked a favourite when saved.
        package var isFavorite = false
        /// The files kept with it (sidecars, the raw of a pair), durable before this is recorded.
        package var companions: [CatalogCompanion] = []

        package init(
            id: String, path: String, originalName: String?, byteSize: Int64, sha256: String, kind: String,
            format: String, addedAt: Double, metadata: String?, isFavorite: Bool = false,
            companions: [CatalogCompanion] = []
        ) {
            self.companions = companions
            self.id = id
            self.path = path
            self.originalName = originalName
            self.byteSize = byteSize
            self.sha256 = sha256
            self.kind = kind
            self.format = format
            self.addedAt = addedAt
            self.metadata = metadata
            self.isFavorite = isFavorite
        }
    }

    /// The record as one JSON object (keys sorted, no raw line breaks: one line of the journal).
    var json: [UInt8] {
        var object = JSONObjectWriter()
        switch self {
        case .save(let asset):
            object.add("added", asset.addedAt)
            object.add("companions", CatalogCompanion.jsonText(asset.companions))
            object.add("favorite", asset.isFavorite ? 1 : nil)
            object.add("format", asset.format)
            object.add("id", asset.id)
            object.add("kind", asset.kind)
            object.add("meta", asset.metadata)
            object.add("name", asset.originalName)
            object.add("op", Operation.save.rawValue)
            object.add("path", asset.path)
            object.add("sha256", asset.sha256)
            object.add("size", asset.byteSize)
        case .createAlbum(let id, let title, let createdAt):
            object.add("at", createdAt)
            object.add("id", id)
            object.add("op", Operation.createAlbum.rawValue)
            object.add("title", title)
        case .renameAlbum(let id, let title):
            object.add("id", id)
            object.add("op", Operation.renameAlbum.rawValue)
            object.add("title", title)
        case .deleteAlbum(let id):
            object.add("id", id)
            object.add("op", Operation.deleteAlbum.rawValue)
        case .rememberAlbum(let id, let title):
            object.add("id", id)
            object.add("op", Operation.rememberAlbum.rawValue)
            object.add("title", title)
        case .addToAlbum(let album, let assets, let at):
            object.add("assets", Self.list(assets))
            object.add("at", at)
            object.add("id", album)
            object.add("op", Operation.addToAlbum.rawValue)
        case .removeFromAlbum(let album, let assets):
            object.add("assets", Self.list(assets))
            object.add("id", album)
            object.add("op", Operation.removeFromAlbum.rawValue)
        case .deleteAssets(let assets, let at):
            object.add("assets", Self.list(assets))
            object.add("at", at)
            object.add("op", Operation.deleteAssets.rawValue)
        case .restoreAssets(let assets):
            object.add("assets", Self.list(assets))
            object.add("op", Operation.restoreAssets.rawValue)
        case .purgeAssets(let assets):
            object.add("assets", Self.list(assets))
            object.add("op", Operation.purgeAssets.rawValue)
        case .setCompanions(let asset, let companions):
            object.add("companions", CatalogCompanion.jsonText(companions) ?? "[]")
            object.add("id", asset)
            object.add("op", Operation.setCompanions.rawValue)
        case .acknowledgeDamage(let offset):
            object.add("offset", offset)
            object.add("op", Operation.acknowledgeDamage.rawValue)
        }
        return object.bytes
    }

    /// Identifiers are UUIDs and never hold a space: a list is one string, space-separated.
    private static func list(_ ids: [String]) -> String { ids.joined(separator: " ") }

    /// The change a journal line's JSON holds; `nil` when it is not one (an unknown operation,
    /// a missing or mistyped value).
    init?(json: some Collection<UInt8>) {
        guard let object = JSONObjectReader(json) else { return nil }
        do throws(JSONObjectReader.TypeMismatch) {
            func text(_ key: String) throws(JSONObjectReader.TypeMismatch) -> String? {
                try object.string(key).flatMap { $0.isEmpty ? nil : $0 }
            }
            func ids() throws(JSONObjectReader.TypeMismatch) -> [String]? {
                try object.string("assets").map { $0.split(separator: " ").map(String.init) }
            }
            switch Operation(rawValue: try object.string("op") ?? "") {
            case .save:
                guard let id = try text("id"), let path = try text("path"), let size = try object.int64("size"),
                    let sha256 = try text("sha256"), let kind = try text("kind"), let format = try text("format"),
                    let added = try object.double("added")
                else { return nil }
                var companions: [CatalogCompanion] = []
                if let text = try object.string("companions") {
                    guard let list = CatalogCompanion.list(fromJSON: text) else { return nil }
                    companions = list
                }
                self = .save(
                    SavedAsset(
                        id: id, path: path, originalName: try object.string("name"), byteSize: size,
                        sha256: sha256, kind: kind, format: format, addedAt: added,
                        metadata: try object.string("meta"), isFavorite: try object.int64("favorite") == 1,
                        companions: companions))
            case .createAlbum:
                guard let id = try text("id"), let title = try object.string("title"),
                    let at = try object.double("at")
                else { return nil }
                self = .createAlbum(id: id, title: title, createdAt: at)
            case .renameAlbum:
                guard let id = try text("id"), let title = try object.string("title") else { return nil }
                self = .renameAlbum(id: id, title: title)
            case .deleteAlbum:
                guard let id = try text("id") else { return nil }
                self = .deleteAlbum(id: id)
            case .rememberAlbum:
                guard let id = try text("id"), let title = try object.string("title") else { return nil }
                self = .rememberAlbum(id: id, title: title)
            case .addToAlbum:
                guard let id = try text("id"), let assets = try ids(), let at = try object.double("at") else {
                    return nil
                }
                self = .addToAlbum(album: id, assets: assets, at: at)
            case .removeFromAlbum:
                guard let id = try text("id"), let assets = try ids() else { return nil }
                self = .removeFromAlbum(album: id, assets: assets)
            case .deleteAssets:
                guard let assets = try ids(), let at = try object.double("at") else { return nil }
                self = .deleteAssets(assets, at: at)
            case .restoreAssets:
                guard let assets = try ids() else { return nil }
                self = .restoreAssets(assets)
            case .purgeAssets:
                guard let assets = try ids() else { return nil }
                self = .purgeAssets(assets)
            case .setCompanions:
                guard let id = try text("id"), let text = try object.string("companions"),
                    let companions = CatalogCompanion.list(fromJSON: text)
                else { return nil }
                self = .setCompanions(asset: id, companions: companions)
            case .acknowledgeDamage:
                guard let offset = try object.int64("offset") else { return nil }
                self = .acknowledgeDamage(offset: offset)
            case nil:
                return nil
            }
        } catch {
            return nil
        }
    }

    /// The library files the change names (a save's file and its companions', the companions of
    /// a `setCompanions`).
    var namedPaths: [String] {
        switch self {
        case .save(let asset): [asset.path] + asset.companions.map(\.path)
        case .setCompanions(_, let companions): companions.map(\.path)
        default: []
        }
    }

    /// The paths the change names that are not files of the library's `originals/`
    /// (``LibraryFilePath/isOriginal(_:)``): a change naming any is a damaged record, never applied.
    var pathsOutsideOriginals: [String] {
        namedPaths.filter { !LibraryFilePath.isOriginal($0) }
    }

    /// What the change is about, for a message naming a damaged record ("the album …").
    var summary: String {
        switch self {
        case .save(let asset): "the save of \(asset.originalName ?? asset.id) (\(asset.path))"
        case .createAlbum(_, let title, _): "the creation of the album \"\(title)\""
        case .renameAlbum(_, let title): "the renaming of an album to \"\(title)\""
        case .deleteAlbum(let id): "the deletion of the album \(id)"
        case .rememberAlbum(_, let title): "which album \"\(title)\" leads to"
        case .addToAlbum(_, let assets, _): "\(assets.count) photo(s) added to an album"
        case .removeFromAlbum(_, let assets): "\(assets.count) photo(s) removed from an album"
        case .deleteAssets(let assets, _): "the deletion of \(assets.count) photo(s)"
        case .restoreAssets(let assets): "the restoring of \(assets.count) photo(s)"
        case .purgeAssets(let assets): "the permanent deletion of \(assets.count) photo(s)"
        case .setCompanions(let asset, let companions):
            "the update of the sidecars of \(asset) (\(companions.map(\.name).joined(separator: ", ")))"
        case .acknowledgeDamage(let offset): "the repair of the damaged record at byte \(offset)"
        }
    }
}
