import AlbumKitCatalog
import AlbumKitCore
import Foundation

extension Bench {
    /// Builds the listing row's library of `count` photos through the public API in this process,
    /// the fast way for a million photos: the same saves `album save` makes — each album's 100
    /// photos one batch through ``Album/save(_:progress:onResult:)``, the photos named
    /// `IMG_NNNNNN.JPG` with the same bytes the CLI build writes to files first, then every photo
    /// added to "All" (the record a recognised save into "All" writes: an `addToAlbum`) — without
    /// a process started per album, nor a million files written outside the library to save from.
    /// The journal, the originals and the index are what the CLI build makes, but for the times
    /// they were made at.
    static func buildThroughAPI(_ count: Int, library: URL) async throws {
        let photos = try PhotoLibrary.catalog(at: library)
        var ids: [String] = []
        ids.reserveCapacity(count)
        for folder in 0..<(count / 100) {
            let name = String(format: "%04d", folder)
            let media = (0..<100).map { n -> Media in
                let number = folder * 100 + n + 1
                return .data(
                    Data(Corpus.uniqueJPEG(tinyJPEG, tag: "bench photo \(number)")),
                    filename: String(format: "IMG_%06d.JPG", number))
            }
            for result in await photos.album(titled: "Album \(name)").save(media) {
                ids.append(try result.get().assetID)
            }
            if folder % 100 == 99 { Table.progress("built \((folder + 1) * 100) of \(count) photos") }
        }
        let all = try await photos.createAlbum(titled: "All")
        var start = 0
        while start < ids.count {
            let end = min(start + 10_000, ids.count)
            try await photos.addAssets(withIDs: Array(ids[start..<end]), toAlbumWithID: all.id)
            start = end
        }
    }
}
