import AlbumKitConformance
import Foundation
import Testing

@testable import AlbumKitCore

/// Every file of a batch is flushed before it is acknowledged, on Linux and on Darwin, whose plan
/// runs here too (with `fsync` in place of `F_FULLFSYNC`).
@Suite struct FlushTests {
    @Test func darwinFlushesEveryFileAndEmptiesTheDriveCacheOnce() {
        #expect(FlushStep.plan(forBatchOf: 1, on: .darwin) == [.fullFsync(0)])
        #expect(FlushStep.plan(forBatchOf: 3, on: .darwin) == [.fsync(0), .fsync(1), .fullFsync(2)])
        #expect(FlushStep.plan(forBatchOf: 0, on: .darwin).isEmpty)
    }

    @Test func linuxFlushesABatchWithOneSyncfs() {
        #expect(FlushStep.plan(forBatchOf: 1, on: .linux) == [.fsync(0)])
        #expect(FlushStep.plan(forBatchOf: 5, on: .linux) == [.syncFileSystem(0)])
        #expect(FlushStep.plan(forBatchOf: 2, on: .other) == [.fsync(0), .fsync(1)])
    }

    /// A failing flush of any one file of the batch fails the flush and names that file: the
    /// Darwin plan really reaches files 2…N (it used to flush the first file only).
    @Test(arguments: [FlushStep.Platform.darwin, .current])
    func everyFileOfABatchIsFlushed(platform: FlushStep.Platform) async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let files = try (0..<4).map { index in
                let path = dir.appendingPathComponent("file-\(index).jpg").path
                _ = FileManager.default.createFile(atPath: path, contents: Data(repeating: UInt8(index), count: 4096))
                return try FileSystem.openForReading(path).0
            }
            defer { files.forEach(FileSystem.close) }
            try FileSystem.flush(files, on: platform)

            let checked = platform == .linux ? [0] : Array(files.indices)
            for index in checked {
                let rule = FaultInjector.inject(.fsync, under: files[index].path, errno: EIO, times: 1)
                defer { FaultInjector.remove(rule) }
                #expect {
                    try FileSystem.flush(files, on: platform)
                } throws: { error in
                    (error as? SystemError)?.path == files[index].path && (error as? SystemError)?.errno == EIO
                }
            }
        }
    }
}
