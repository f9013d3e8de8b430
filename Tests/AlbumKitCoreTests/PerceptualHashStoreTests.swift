import Foundation
import Testing

@testable import AlbumKitCore

/// The hash cache: kept across runs, damaged lines lost alone, a missing file an empty cache.
@Suite struct PerceptualHashStoreTests {
    @Test func hashesSurviveARoundTripAndDamagedLinesAreLeftOut() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hash-store-\(UUID().uuidString)")
        defer {
            // try?: the test's own temporary folder; nothing depends on its removal.
            try? FileManager.default.removeItem(at: folder)
        }
        let sha = String(repeating: "ab", count: 32)
        let other = String(repeating: "01", count: 32)
        var store = PerceptualHashStore(folder: folder.path + "/cache", name: "perceptual-hashes")
        try store.load()
        #expect(store.count == 0, "a missing file is an empty cache")
        store[sha] = PerceptualHash(difference: 1, perceptual: .max)
        store[other] = PerceptualHash(difference: 0xABCD, perceptual: 7)
        try store.saveIfChanged()

        var again = PerceptualHashStore(folder: folder.path + "/cache", name: "perceptual-hashes")
        try again.load()
        #expect(again[sha] == PerceptualHash(difference: 1, perceptual: .max))
        #expect(again.count == 2)

        // A line cut short and a line of something else lose only themselves.
        let file = folder.appendingPathComponent("cache/perceptual-hashes")
        var text = try String(contentsOf: file, encoding: .utf8)
        text = "garbage line\n" + text + String(repeating: "cd", count: 32) + " 00000000000000\n"
        try Data(text.utf8).write(to: file)
        var damaged = PerceptualHashStore(folder: folder.path + "/cache", name: "perceptual-hashes")
        try damaged.load()
        #expect(damaged.count == 2)
        #expect(damaged[other] == PerceptualHash(difference: 0xABCD, perceptual: 7))
    }

    @Test func aCatalogKeepsItsHashesInsideAndAFolderLibraryInTheUsersCache() throws {
        let catalog = PerceptualHashStore.forLibrary(
            (URL(fileURLWithPath: "/p/Photos.albumlibrary"), "catalog library"), environment: ["HOME": "/home/u"])
        #expect(catalog?.folder == "/p/Photos.albumlibrary/cache")
        let folders = PerceptualHashStore.forLibrary(
            (URL(fileURLWithPath: "/home/u/Pictures"), "folder library"),
            environment: ["HOME": "/home/u", "XDG_CACHE_HOME": "/tmp/c"])
        #expect(folders?.folder == "/tmp/c/albumkit/perceptual-hashes")
        #expect(folders?.name.count == 64)
        let relative = PerceptualHashStore.forLibrary(
            (URL(fileURLWithPath: "/home/u/Pictures"), "folder library"),
            environment: ["HOME": "/home/u", "XDG_CACHE_HOME": "relative"])
        #expect(relative?.folder == "/home/u/.cache/albumkit/perceptual-hashes", "a relative XDG_CACHE_HOME is ignored")
        #expect(PerceptualHashStore.forLibrary(nil, environment: [:]) == nil)
    }
}
