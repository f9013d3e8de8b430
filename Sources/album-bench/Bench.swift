import AlbumKitCore
import Foundation

/// Shared state of one bench run: options, the scratch directory, and the generated corpus.
struct Bench: Sendable {
    let options: BenchOptions
    /// A fresh directory under the scratch parent, removed at the end.
    let scratch: URL
    /// The package root (for `Examples/` and test fixtures).
    let packageRoot: URL

    /// Paired rounds per row (`--rounds`).
    var rounds: Int { options.rounds }

    /// `small` normally, `large` with `--large`.
    func size<T>(_ small: T, large: T) -> T { options.large ? large : small }

    /// A new empty directory `name` inside the scratch directory.
    func directory(_ name: String) throws -> URL {
        let url = scratch.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Puts a row's outputs out of the way once the row is done. Many small files are only moved
    /// aside (removed with the scratch directory when the run ends): on ext4 without a journal, a
    /// new inode skips every inode freed in the last 60–360 s, so deleting 10 000 photos made the
    /// rows after them pay for it, unevenly. A few large files (`now`) are removed at once.
    func discard(_ url: URL, now: Bool = false) {
        if now
            || (try? FileManager.default.moveItem(at: url, to: kept.appendingPathComponent(UUID().uuidString)))
                == nil
        {
            try? FileManager.default.removeItem(at: url)
        }
        Statistics.flushAllFileSystems()
    }

    /// Where ``discard(_:now:)`` moves outputs.
    private var kept: URL {
        let url = scratch.appendingPathComponent("kept")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A new catalog library `name` in the scratch directory.
    func library(_ name: String) throws -> (url: URL, library: PhotoLibrary) {
        let url = scratch.appendingPathComponent("\(name).albumlibrary")
        try? FileManager.default.removeItem(at: url)
        return (url, try PhotoLibrary.catalog(at: url))
    }

    /// Saves `file` into `album`, failing the scenario on an error.
    static func save(_ file: URL, into album: Album) async throws -> SavedAsset {
        do { return try await album.save(.file(file)) } catch { throw BenchFailure("save failed: \(error)") }
    }

    /// Megabytes (10^6 bytes).
    static func megabytes(_ bytes: Int64) -> Double { Double(bytes) / 1_000_000 }
}
