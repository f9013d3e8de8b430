import AlbumKit
import Foundation

/// `album watch` (the library's changes as they happen) and `album access` (what the library lets
/// this program do): the command line's side of ``PhotoLibrary/changes(interval:)`` and
/// ``PhotoLibrary/access(for:)``.
enum LibraryWatch {
    /// `album watch [--interval SECONDS]`: a line per inserted, removed or changed asset and
    /// album, by file name and album title (ids with `-v`), until Ctrl-C.
    static func watch(_ arguments: Arguments) async throws -> Int32 {
        var interval = Duration.seconds(1)
        if let text = arguments.value(.interval) {
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0.05, seconds <= 86_400 else {
                throw AlbumCommand.UsageFailure(
                    message: "--interval takes a number of seconds from 0.05 to 86400, not '\(text)'")
            }
            interval = .milliseconds(Int((seconds * 1000).rounded()))
        }
        let library = try LibraryChoice.open(arguments, create: false)
        // Opening errors (no library there) come now, not after the first interval; the titles
        // also name an album removed later.
        let names = Names(since: LibraryClock.now().addingTimeInterval(-60))
        for album in try await library.albums() { names.albums[album.id] = album.title }
        for try await change in library.changes(interval: interval) {
            if arguments.json {
                Output.json(ChangeLine(change))
            } else {
                await names.learn(change, from: library)
                for (verb, kind, ids) in Self.lines(of: change) {
                    for id in ids {
                        Output.out(Output.shown(names.line(verb, kind, id, verbose: arguments.verbose)))
                    }
                }
            }
        }
        return 0
    }

    /// The names `album watch` prints: album titles, and the file names of assets added since the
    /// watch started (what an asset changed or removed was called when it was last seen). A name
    /// never learnt is printed as the id.
    final class Names {
        var albums: [String: String] = [:]
        var assets: [String: (name: String, kind: MediaKind)] = [:]
        /// Assets added from then on are looked up by their date added.
        let since: Date

        init(since: Date) { self.since = since }

        /// Looks up the names `change` needs and does not know yet.
        func learn(_ change: LibraryChange, from library: PhotoLibrary) async {
            for id in change.insertedAlbumIDs + change.changedAlbumIDs {
                // An album gone again meanwhile keeps its id for a name.
                if let info = try? await library.albumInfo(withID: id) { albums[id] = info.title }
            }
            let unknown = (change.insertedAssetIDs + change.changedAssetIDs).filter { assets[$0] == nil }
            guard !unknown.isEmpty else { return }
            let recent = AssetFilter(dates: since..<Date.distantFuture)
            do {
                for try await asset in library.allAssets(orderedBy: .dateAdded, matching: recent) {
                    assets[asset.id] = (
                        asset.originalFilename ?? asset.fileURL?.lastPathComponent ?? asset.id, asset.kind
                    )
                }
            } catch {
                // A library that cannot list now: its lines show ids, as before names were known.
            }
        }

        /// "added photo IMG_0001.JPG", "changed album "Trip"", with the id after it with -v.
        func line(_ verb: String, _ kind: String, _ id: String, verbose: Bool) -> String {
            if kind == "album" {
                guard let title = albums[id] else { return "\(verb) album \(id)" }
                return "\(verb) album \"\(title)\"" + (verbose ? " (\(id))" : "")
            }
            guard let asset = assets[id] else { return "\(verb) asset \(id)" }
            return "\(verb) \(asset.kind.rawValue) \(asset.name)" + (verbose ? " (\(id))" : "")
        }
    }

    /// The text lines of a change, in a fixed order: albums first (an album and its photos added
    /// together read in that order), then assets.
    static func lines(of change: LibraryChange) -> [(verb: String, kind: String, ids: [String])] {
        [
            ("added", "album", change.insertedAlbumIDs), ("changed", "album", change.changedAlbumIDs),
            ("added", "asset", change.insertedAssetIDs), ("changed", "asset", change.changedAssetIDs),
            ("removed", "asset", change.removedAssetIDs), ("removed", "album", change.removedAlbumIDs),
        ]
    }

    /// One `--json` line of `album watch` (Docs/cli-json.md): the identifiers by kind, an empty
    /// kind left out.
    struct ChangeLine: Encodable {
        var insertedAssets, removedAssets, changedAssets, insertedAlbums, removedAlbums, changedAlbums: [String]?

        init(_ change: LibraryChange) {
            func some(_ ids: [String]) -> [String]? { ids.isEmpty ? nil : ids }
            insertedAssets = some(change.insertedAssetIDs)
            removedAssets = some(change.removedAssetIDs)
            changedAssets = some(change.changedAssetIDs)
            insertedAlbums = some(change.insertedAlbumIDs)
            removedAlbums = some(change.removedAlbumIDs)
            changedAlbums = some(change.changedAlbumIDs)
        }
    }

    /// `album access [--request]`: the access at each level.
    static func access(_ arguments: Arguments) async throws -> Int32 {
        let library = try LibraryChoice.open(arguments, create: false)
        var levels: [(PhotoLibraryAccessLevel, PhotoLibraryAccess)] = []
        for level in [PhotoLibraryAccessLevel.addOnly, .readWrite] {
            let access =
                arguments.has(.request)
                ? try await library.requestAccess(for: level) : try await library.access(for: level)
            levels.append((level, access))
        }
        if arguments.json {
            struct Line: Encodable {
                let addOnly: String
                let readWrite: String
            }
            Output.json(Line(addOnly: levels[0].1.rawValue, readWrite: levels[1].1.rawValue))
        } else {
            for (level, access) in levels {
                Output.out("\(level == .addOnly ? "add-only" : "read-write"): \(Self.shown(access))")
            }
        }
        return levels.allSatisfy { $0.1.isGranted } ? 0 : 1
    }

    private static func shown(_ access: PhotoLibraryAccess) -> String {
        switch access {
        case .notDetermined: "not determined (album access --request asks)"
        case .restricted: "restricted (blocked on this device; the user cannot change it)"
        case .denied: "denied (only System Settings, Privacy, Photos can change it)"
        case .limited: "limited (the photos the user selected)"
        case .authorized: "authorized"
        }
    }
}
