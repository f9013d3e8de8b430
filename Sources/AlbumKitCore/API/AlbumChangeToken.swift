import Foundation

/// Where an album's change stream stopped: the album and its listing as the app last saw them.
/// Keep it (``data``) when the app stops and pass it to ``Album/changes(orderedBy:since:interval:)``
/// on the next start: the first change then says what happened in between — assets added, removed
/// or changed meanwhile, or the album deleted.
///
/// ```swift
/// for try await change in album.changes(since: savedToken) {
///     apply(change)
///     UserDefaults.standard.set(change.token.data, forKey: "albumToken")
/// }
/// ```
public struct AlbumChangeToken: Sendable, Hashable, Codable {
    /// One listed asset: its identifier and a fingerprint of its description.
    struct Entry: Sendable, Hashable, Codable {
        var id: String
        var fingerprint: String
    }

    /// The album listed, or `nil` when no album resolved.
    public let albumID: String?
    /// The order the listing was sorted in.
    public let order: AssetOrder
    /// The listing, in `order`.
    let entries: [Entry]
    /// Where the library's own change history stood when the listing was made, where it keeps one
    /// (Photos' `PHPersistentChangeToken`, archived): on a restart the library says what changed
    /// since, beyond what the listing shows. `nil` in tokens of other libraries and older tokens.
    package let libraryPosition: Data?

    /// The token of `assets`, the listing of album `albumID` in `order`, made when the library's
    /// history stood at `libraryPosition`.
    package init(albumID: String?, order: AssetOrder, assets: [AssetInfo], libraryPosition: Data? = nil) {
        self.albumID = albumID
        self.order = order
        self.entries = assets.map { Entry(id: $0.id, fingerprint: Self.fingerprint(of: $0)) }
        self.libraryPosition = libraryPosition
    }

    /// The identifiers of the listed assets, in `order`.
    package var assetIDs: [String] { entries.map(\.id) }

    /// The number of assets the listing had.
    ///
    /// ```swift
    /// print(token.count, "assets when the app stopped")
    /// ```
    public var count: Int { entries.count }

    /// The token as bytes to store (JSON).
    ///
    /// ```swift
    /// try change.token.data.write(to: tokenURL)
    /// ```
    public var data: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Every field is a string, bytes, an optional of them or an array of them: encoding cannot fail.
        return (try? encoder.encode(self)) ?? Data()
    }

    /// A token read back from ``data``.
    ///
    /// ```swift
    /// let token = try? AlbumChangeToken(data: Data(contentsOf: tokenURL))
    /// ```
    /// - Throws: `.invalidArgument` for bytes that are not a token (a damaged or foreign file).
    public init(data: Data) throws {
        do {
            self = try JSONDecoder().decode(Self.self, from: data)
        } catch {
            throw AlbumError(
                .invalidArgument, "The \(data.count) bytes given are not an album change token: \(error).")
        }
        var seen = Set<String>()
        guard entries.allSatisfy({ !$0.id.isEmpty && seen.insert($0.id).inserted }) else {
            throw AlbumError(.invalidArgument, "The album change token lists an asset twice or without identifier.")
        }
    }

    /// What identifies one state of an asset's description: any field an app shows changing
    /// changes it (64-bit FNV-1a of the fields, stable across runs and machines).
    static func fingerprint(of asset: AssetInfo) -> String {
        var fields: [String] = [
            asset.originalFilename ?? "", asset.kind.rawValue, asset.byteSize.map(String.init) ?? "",
            String(asset.addedAt.timeIntervalSince1970), asset.sha256 ?? "", asset.fileURL?.path ?? "",
            asset.pixelWidth.map(String.init) ?? "", asset.pixelHeight.map(String.init) ?? "",
            asset.duration.map { String($0) } ?? "", asset.capturedAt.map { String($0.timeIntervalSince1970) } ?? "",
            asset.location.map { "\($0.latitude),\($0.longitude),\($0.altitude.map { String($0) } ?? "")" } ?? "",
            asset.isFavorite ? "favourite" : "",
        ]
        for companion in asset.companions {
            fields.append("\(companion.originalFilename)|\(companion.byteSize ?? -1)|\(companion.sha256 ?? "")")
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in fields.joined(separator: "\u{1F}").utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
