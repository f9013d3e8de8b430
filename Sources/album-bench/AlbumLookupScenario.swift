import AlbumKitCatalog
import AlbumKitCore
import Foundation

extension Bench {
    /// 3. Saves into one album of libraries with more and more albums: AlbumKit (remembered id,
    /// indexed title) vs the scan-every-album algorithm (enumerate every album comparing titles, then a
    /// second transaction to add the asset), on the same catalogs.
    func lookup(_ files: [URL]) async throws -> ScenarioResult {
        var result = ScenarioResult(
            id: "lookup", title: "Album lookup cost: AlbumKit vs the scan-every-album algorithm")
        let counts = [10, 1_000, 10_000]
        let saves = min(size(30, large: 100), (files.count - 1) / 2)
        result.parameters = ["albums": counts.map(String.init).joined(separator: ", "), "savesEach": "\(saves)"]

        struct Subject {
            let count: Int
            let url: URL
            let library: PhotoLibrary
            let catalog: SyntheticCatalog
            let backend: CatalogBackend
            let albumID: String
            var ours: [Double] = []
            var scanning: [Double] = []
        }
        var subjects: [Subject] = []
        for count in counts {
            let (url, library) = try library("lookup-\(count)")
            // The library is created by its opening, which runs in the background: wait for it.
            _ = try await library.albums()
            let catalog = try SyntheticCatalog(library: url)
            try catalog.addAlbums(count - 1)
            // The target album is the newest, so an enumeration finds it last.
            let first = try await Self.save(files[0], into: library.album(titled: "Target"))
            guard let albumID = first.albumID else { throw BenchFailure("no album id") }
            subjects.append(
                Subject(
                    count: count, url: url, library: library, catalog: catalog,
                    backend: try CatalogBackend.open(at: url), albumID: albumID))
        }

        // Lookup alone (no I/O to speak of): what each algorithm pays to find the album.
        let title = try AlbumTitle("Target")
        var lookupOurs: [Double] = []
        var lookupScanning: [Double] = []
        for subject in subjects {
            let repeats = 200
            var found: String?
            let ours = try await Statistics.time {
                for _ in 0..<repeats { found = try await subject.backend.findAlbum(titled: title) }
            }
            guard found == subject.albumID else { throw BenchFailure("AlbumKit found the wrong album") }
            let scanning = try Statistics.time {
                for _ in 0..<repeats { found = try subject.catalog.scanForAlbum(titled: "Target") }
            }
            guard found == subject.albumID else { throw BenchFailure("the scanning lookup found the wrong album") }
            lookupOurs.append(ours / Double(repeats))
            lookupScanning.append(scanning / Double(repeats))
            result.add("lookup only, \(subject.count) albums: AlbumKit", ours / Double(repeats) * 1e6, "µs")
            result.add("lookup only, \(subject.count) albums: scanning", scanning / Double(repeats) * 1e6, "µs")
        }

        // Whole durable saves, round-robin over the libraries so disk noise hits all alike.
        Statistics.flushAllFileSystems()
        for round in 0..<saves {
            // Rotate the order each round, so no library always runs first (or right after another).
            for offset in subjects.indices {
                let index = (offset + round) % subjects.count
                let album = subjects[index].library.album(titled: "Target")
                let ourFile = files[1 + 2 * round]
                let scanningFile = files[2 + 2 * round]
                subjects[index].ours.append(try await Statistics.time { _ = try await Self.save(ourFile, into: album) })
                let subject = subjects[index]
                subjects[index].scanning.append(
                    try await Statistics.time {
                        let asset = try await subject.library.save(.file(scanningFile))  // transaction 1: library
                        guard let id = try subject.catalog.scanForAlbum(titled: "Target") else {  // enumerate
                            throw BenchFailure("the scanning design lost the album")
                        }
                        // transaction 2: album
                        try subject.catalog.addInSecondTransaction(asset: asset.assetID, toAlbum: id)
                    })
            }
        }
        for subject in subjects {
            result.add("save, \(subject.count) albums: AlbumKit median", Statistics.median(subject.ours) * 1000, "ms")
            result.add(
                "save, \(subject.count) albums: scanning median", Statistics.median(subject.scanning) * 1000, "ms")
        }
        let first = subjects[0]
        let last = subjects[subjects.count - 1]
        let oursGrowth = Statistics.median(last.ours) / Statistics.median(first.ours)
        let scanningGrowth = Statistics.median(last.scanning) / Statistics.median(first.scanning)
        result.ratio(
            "AlbumKit save time, \(last.count) / \(first.count) albums", oursGrowth, target: "≤ 1.10",
            met: oursGrowth <= 1.10)
        result.ratio("scanning save time, \(last.count) / \(first.count) albums", scanningGrowth)
        result.ratio(
            "AlbumKit lookup time, \(last.count) / \(first.count) albums",
            lookupOurs[lookupOurs.count - 1] / lookupOurs[0])
        result.ratio(
            "scanning lookup time, \(last.count) / \(first.count) albums",
            lookupScanning[lookupScanning.count - 1] / lookupScanning[0])
        result.ratio(
            "scanning / AlbumKit save time at \(last.count) albums",
            Statistics.median(last.scanning) / Statistics.median(last.ours))
        for subject in subjects { discard(subject.url) }
        return result
    }
}
