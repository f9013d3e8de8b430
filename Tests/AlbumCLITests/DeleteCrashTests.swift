import AlbumKitConformance
import AlbumKitCatalog
import AlbumKitCore
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `album delete-asset --permanently` killed with SIGKILL at random moments: after the next
/// opening, every asset is either whole (record, file, albums) or gone — never an asset without
/// its file or a file left behind — and the library verifies.
@Suite(.serialized) struct DeleteCrashTests {
    /// A distinct valid JPEG (the example photo with a comment holding `tag`).
    static func jpeg(_ tag: String) -> Data { Fixture.uniqueJPEG(tag) }

    /// 12 rounds of 200 photos deleted and killed at a random moment (about 28 s on 2 loaded cores):
    /// fewer rounds would try fewer moments of the deletion.
    @Test(.timeLimit(.minutes(10))) func killedDeletionsLeaveWholeAssetsOrNone() async throws {
        try await withTemporary { dir in
            let url = dir.appendingPathComponent("Crash.albumlibrary")
            var generator = SystemRandomNumberGenerator()
            var outcomes: [String: Int] = [:]
            var duration = 0.0
            for round in 0..<12 {
                // Given 200 photos, half of them in an album
                let library = try PhotoLibrary.catalog(at: url)
                let media = (0..<200).map {
                    Media.data(Self.jpeg("round \(round) photo \($0)"), filename: "p\($0).jpg")
                }
                _ = await library.album(titled: "Half").save(Array(media[0..<100]))
                _ = await library.save(Array(media[100...]))
                var ids: [String] = []
                for try await asset in library.allAssets() { ids.append(asset.id) }
                // When a process deleting all of them is killed after a random part of the time a
                // whole deletion takes (measured in round 0, which is not killed)
                let started = Date()
                let process = try CLI.start(["--library", url.path, "delete-asset", "--permanently"] + ids)
                if round > 0 {
                    usleep(UInt32(Double.random(in: 0.3...1.0, using: &generator) * duration * 1e6))
                    kill(process.processIdentifier, SIGKILL)
                }
                process.waitUntilExit()
                if round == 0 { duration = Date().timeIntervalSince(started) }
                // Then, once the library is opened again, each asset is whole or gone
                let reopened = try PhotoLibrary.catalog(at: url)
                var left: [AssetInfo] = []
                for try await asset in reopened.allAssets() { left.append(asset) }
                for asset in left {
                    let path = try #require(asset.fileURL).path
                    #expect(FileManager.default.fileExists(atPath: path), "a row without its file: \(asset.id)")
                }
                let files = Self.files(under: url.appendingPathComponent("originals"))
                #expect(files.count == left.count, "files \(files.count), assets \(left.count)")
                let report = try await reopened.verify()
                #expect(report.problems.isEmpty, "\(report.problems)")
                let inAlbum = try await reopened.assets(inAlbumTitled: "Half").count
                #expect(inAlbum <= 100)
                let killed = process.terminationReason == .uncaughtSignal
                if killed {
                    outcomes[
                        left.isEmpty ? "killed, finished by the next opening" : "killed before recording", default: 0] +=
                        1
                }
                #expect(left.isEmpty || left.count == 200, "one record deletes them all")
                // Clean up what is left for the next round
                try await reopened.deleteAssets(withIDs: left.map(\.id), permanently: true)
                #expect(Self.files(under: url.appendingPathComponent("originals")).isEmpty)
            }
            print("delete-asset of 200 assets (\(Int(duration * 1000)) ms whole), SIGKILL in 11 rounds: \(outcomes)")
        }
    }

    static func files(under directory: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        var out: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(
                atPath: directory.appendingPathComponent(path).path, isDirectory: &isDirectory)
            if !isDirectory.boolValue { out.append(path) }
        }
        return out
    }

    func withTemporary(_ body: (URL) async throws -> Void) async throws {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
            "album-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        try await body(url)
    }
}
