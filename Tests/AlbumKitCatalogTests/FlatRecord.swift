import AlbumKitCore
import Foundation

/// A flat record of strings and numbers, as the journal of the previous release wrote them: what
/// ``JSONObjectWriter`` writes and ``JSONObjectReader`` reads must match what Foundation's
/// `JSONEncoder` and `JSONDecoder` make of the same type.
struct FlatRecord: Codable, Equatable, Sendable {
    enum Operation: String, Codable, Sendable {
        /// An asset saved (or an existing one added to an album).
        case save
        /// An album created, renamed or deleted.
        case createAlbum, renameAlbum, deleteAlbum
        /// An asset removed from an album (`asset`, `album`); it stays in the library.
        case removeFromAlbum
        /// An asset deleted from the library (`asset`), recorded before its row and file go.
        case deleteAsset
    }
    var op: Operation
    var asset: String?
    var path: String?
    var name: String?
    var size: Int64?
    var sha256: String?
    /// When the asset was added to the library (seconds since 1970).
    var added: Double?
    var album: String?
    var title: String?
    /// When the album was created, or the asset added to it.
    var at: Double?
    /// For a save: the pending row it completes (the asset's own id, or the row of a copy whose
    /// bytes were already saved), so that opening the library can finish a save whose catalog
    /// commit was lost with the power (``CatalogBackend/rollForward()``).
    var pending: String?
    /// For a save (and the album its commit created): the commit it belongs to, and how many
    /// saves that commit recorded, so that a commit whose records were cut short by a crash is
    /// never finished in part.
    var batch: String?
    var of: Int?
    /// For a deletion: the process that made it (``ProcessOwner``). A deletion whose process
    /// died before it marked the rows never happened; opening the library records the assets
    /// as saved again (``CatalogBackend/journalGaps(afterACrashOf:)``).
    var owner: String?

    /// The record as one JSON object, keys sorted.
    var json: [UInt8] {
        var object = JSONObjectWriter()
        object.add("added", added)
        object.add("album", album)
        object.add("asset", asset)
        object.add("at", at)
        object.add("batch", batch)
        object.add("name", name)
        object.add("of", of)
        object.add("op", op.rawValue)
        object.add("owner", owner)
        object.add("path", path)
        object.add("pending", pending)
        object.add("sha256", sha256)
        object.add("size", size)
        object.add("title", title)
        return object.bytes
    }
}

extension FlatRecord {
    /// The record in one line of the journal; `nil` when the line is not one (cut short by a
    /// crash, or a member of another type), as `JSONDecoder` would refuse it.
    init?(line: some Collection<UInt8>) {
        guard let object = JSONObjectReader(line) else { return nil }
        do throws(JSONObjectReader.TypeMismatch) {
            guard let op = try object.string("op").flatMap(Operation.init(rawValue:)) else { return nil }
            self.op = op
            asset = try object.string("asset")
            path = try object.string("path")
            name = try object.string("name")
            size = try object.int64("size")
            sha256 = try object.string("sha256")
            added = try object.double("added")
            album = try object.string("album")
            title = try object.string("title")
            at = try object.double("at")
            pending = try object.string("pending")
            batch = try object.string("batch")
            of = try object.int64("of").flatMap { Int(exactly: $0) }
            owner = try object.string("owner")
        } catch {
            return nil
        }
    }
}
