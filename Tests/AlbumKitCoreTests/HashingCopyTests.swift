import AlbumKitConformance
import Foundation
import Testing

@testable import AlbumKitCore

#if canImport(Glibc)
    import Glibc
#endif

/// The copy-and-hash engine on real files: small files in one pass, large ones copied by the
/// kernel while another thread hashes, sources that change refused, failures blamed on the right side.
@Suite struct HashingCopyTests {
    /// Deterministic bytes that differ everywhere (so a misplaced chunk changes the hash).
    static func bytes(_ count: Int, seed: UInt64 = 1) -> Data {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var bytes = [UInt8](repeating: 0, count: count)
        for index in 0..<count {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            bytes[index] = UInt8(truncatingIfNeeded: state)
        }
        return Data(bytes)
    }

    /// Copies `source` into a new file `name` in `directory` through a staged (invisible) file.
    static func copy(
        _ source: URL, named name: String, in directory: URL, expecting: FileSystem.FileVersion? = nil
    ) throws -> HashingCopy.Copied {
        let (input, _) = try FileSystem.openForCopying(FileSystemPath(source.path))
        defer { FileSystem.close(input) }
        let folder = try FileSystem.openDirectory(directory.path)
        defer { FileSystem.close(folder) }
        let staged = try FileSystem.stage(in: folder, as: StagingName(kind: "partial"))
        do {
            let copied = try HashingCopy.copy(input, to: staged.descriptor, expecting: expecting)
            try FileSystem.publish(staged, as: name)
            FileSystem.close(staged.descriptor)
            return copied
        } catch {
            FileSystem.abandon(staged)
            throw error
        }
    }

    static func sha256(_ data: Data) -> String { data.withUnsafeBytes { SHA256Hasher.hash($0) } }

    @Test(arguments: [0, 1, 1 << 20, (1 << 20) + 1, 3_000_000, Int(HashingCopy.parallelThreshold), 21_000_000])
    func copiesEveryByteAndHashesIt(size: Int) async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let data = Self.bytes(size, seed: UInt64(size))
            let source = Fixture.write(data, named: "source.bin", in: dir)
            let copied = try Self.copy(source, named: "copy.bin", in: dir)
            #expect(copied.byteCount == UInt64(size))
            #expect(copied.sha256 == Self.sha256(data))
            #expect(try Data(contentsOf: dir.appendingPathComponent("copy.bin")) == data)
        }
    }

    @Test(arguments: [100_000, 12_000_000])
    func sourceChangedAfterItWasOpenedIsRefused(size: Int) async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let source = Fixture.write(Self.bytes(size), named: "source.bin", in: dir)
            let (input, seen) = try FileSystem.openForCopying(FileSystemPath(source.path))
            FileSystem.close(input)
            // Same size, new bytes: only the modification and change times tell.
            usleep(2_000)
            try Self.bytes(size, seed: 9).write(to: source)
            let failure = #expect(throws: HashingCopy.Failure.self) {
                try Self.copy(source, named: "copy.bin", in: dir, expecting: seen)
            }
            guard case .changed = failure else { throw Unexpected(failure) }
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("copy.bin").path))
        }
    }

    /// A writer appending to the source while a large copy runs: the copy is refused, never
    /// returned with a hash of bytes that are not what was copied.
    @Test func sourceGrowingDuringTheCopyIsRefused() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let source = Fixture.write(Self.bytes(64 << 20), named: "source.bin", in: dir)
            let writer = try FileHandle(forWritingTo: source)
            let stop = Locked(false)
            let appending = Thread {
                while !stop.withLock({ $0 }) {
                    _ = try? writer.seekToEnd()
                    try? writer.write(contentsOf: Data(repeating: 7, count: 4096))
                }
            }
            appending.start()
            defer {
                stop.withLock { $0 = true }
                usleep(10_000)
                try? writer.close()
            }
            let failure = #expect(throws: HashingCopy.Failure.self) {
                try Self.copy(source, named: "copy.bin", in: dir)
            }
            guard case .changed = failure else { throw Unexpected(failure) }
        }
    }

    @Test(arguments: [200_000, 12_000_000])
    func aFullDiskIsTheDestinationsFault(size: Int) async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let source = Fixture.write(Self.bytes(size), named: "source.bin", in: dir)
            let output = dir.appendingPathComponent("out")
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
            FaultInjector.inject(.write, under: output.path, errno: ENOSPC)
            let failure = #expect(throws: HashingCopy.Failure.self) {
                try Self.copy(source, named: "copy.bin", in: output)
            }
            guard case .destination(let error) = failure, error.errno == ENOSPC else { throw Unexpected(failure) }
            #expect(Fixture.files(under: output).isEmpty)
        }
    }

    @Test(arguments: [200_000, 12_000_000])
    func anUnreadableSourceIsTheSourcesFault(size: Int) async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let source = Fixture.write(Self.bytes(size), named: "source.bin", in: dir)
            let output = dir.appendingPathComponent("out")
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
            // Opening reads the version once; fail the reads after it.
            FaultInjector.inject(.read, under: source.path, errno: EIO, skip: 1)
            let failure = #expect(throws: HashingCopy.Failure.self) {
                try Self.copy(source, named: "copy.bin", in: output)
            }
            guard case .source(let error) = failure, error.errno == EIO else { throw Unexpected(failure) }
        }
    }

    struct Unexpected: Error {
        let failure: (any Error)?
        init(_ failure: (any Error)?) { self.failure = failure }
    }
}

/// Identifiers made without Foundation's `UUID()`: still version-4 UUIDs, distinct.
@Suite struct RandomIDTests {
    @Test func makesDistinctVersion4UUIDs() throws {
        let ids = (0..<1_000).map { _ in RandomID.make() }
        #expect(Set(ids).count == ids.count)
        for id in ids.prefix(50) {
            let parsed = try #require(UUID(uuidString: id))
            #expect(parsed.uuidString.lowercased() == id)
            let characters = Array(id)
            #expect(characters[14] == "4")
            #expect("89ab".contains(characters[19]))
        }
    }
}

/// A source removed while it is saved was reported as "changed" (its status changes with the
/// removal); it is now said to be removed.
@Suite struct RemovedSourceTests {
    @Test func aSourceRemovedAfterItWasOpenedIsSaidToBeRemoved() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let source = Fixture.write(Fixture.jpegBytes, named: "gone.jpg", in: dir)
            let reader = try MediaReader(.file(source))
            try FileManager.default.removeItem(at: source)
            let destination = try FileSystem.openForAppending(dir.appendingPathComponent("copy.jpg").path)
            defer { FileSystem.close(destination) }
            do {
                _ = try reader.copy(to: destination)
                Issue.record("a removed source was copied")
            } catch let error as AlbumError {
                #expect(error.code == .fileNotFound)
                #expect(error.message.contains("gone.jpg was removed while it was being saved"), "\(error.message)")
            }
        }
    }

    /// Copies on every core at once each get a chunk buffer of their own (buffers are kept between
    /// copies and handed out again): every copy has its own bytes and hash.
    @Test func concurrentCopiesNeverShareABuffer() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let count = 16
            var expected: [String] = []
            for index in 0..<count {
                let data = HashingCopyTests.bytes(100_000 + index * 70_001, seed: UInt64(index + 7))
                try data.write(to: dir.appendingPathComponent("in-\(index)"))
                var hasher = SHA256Hasher()
                data.withUnsafeBytes { hasher.update($0) }
                expected.append(hasher.finalize())
            }
            let results = Locked<[Int: String]>([:])
            DispatchQueue.concurrentPerform(iterations: count) { index in
                let copied = try? HashingCopyTests.copy(
                    dir.appendingPathComponent("in-\(index)"), named: "out-\(index)", in: dir)
                results.withLock { $0[index] = copied?.sha256 }
            }
            for index in 0..<count {
                #expect(results.withLock { $0[index] } == expected[index])
                #expect(
                    try Data(contentsOf: dir.appendingPathComponent("out-\(index)"))
                        == Data(contentsOf: dir.appendingPathComponent("in-\(index)")))
            }
        }
    }
}

/// A photo of at most ``HashingCopy/wholeFileLimit`` bytes is read whole when a save opens it, in
/// one read, then inspected, hashed and copied from those bytes: the copy is the file byte for
/// byte with its SHA-256, it reads the file once where a reader in chunks reads it again to copy,
/// and a file changed after it was read is refused as one read in chunks is.
@Suite struct WholeReadTests {
    /// Copies `source` through a reader that reads files up to `limit` bytes whole; returns the
    /// SHA-256 and how many reads of the source (its status included) the reader and copy made.
    func copy(_ source: URL, to copy: URL, readingWholeUpTo limit: UInt64) throws -> (String, Int) {
        let reads = FaultInjector.count(.read, under: source.path)
        defer { FaultInjector.remove(reads) }
        let reader = try MediaReader(.file(source), readingWholeUpTo: limit)
        let destination = try FileSystem.openForAppending(copy.path)
        defer { FileSystem.close(destination) }
        let sha256 = try reader.copy(to: destination)
        return (sha256, FaultInjector.calls(reads))
    }

    @Test func aSmallPhotoIsReadOnceAndCopiedByteForByte() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let source = Fixture.write(Fixture.jpegBytes, named: "small.jpg", in: dir)
            let whole = dir.appendingPathComponent("whole.jpg")
            let (sha256, reads) = try copy(source, to: whole, readingWholeUpTo: HashingCopy.wholeFileLimit)
            #expect(try Data(contentsOf: whole) == Fixture.jpegBytes)
            #expect(sha256 == (try Fixture.sha256(ofFileAt: source)))
            // Its status when opened, its bytes, its status after the copy.
            #expect(reads == 3)
            let chunked = dir.appendingPathComponent("chunked.jpg")
            let (again, chunkedReads) = try copy(source, to: chunked, readingWholeUpTo: 0)
            #expect(again == sha256)
            #expect(chunkedReads > reads)
        }
    }

    @Test func aSmallPhotoChangedAfterItWasReadIsRefused() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let source = Fixture.write(Fixture.jpegBytes, named: "changing.jpg", in: dir)
            let reader = try MediaReader(.file(source), readingWholeUpTo: HashingCopy.wholeFileLimit)
            // The same size, other bytes, a later time: written in place after the read.
            var bytes = Fixture.jpegBytes
            bytes[bytes.count - 3] ^= 0xFF
            let handle = try FileHandle(forWritingTo: source)
            try handle.write(contentsOf: bytes)
            try handle.close()
            try FileManager.default.setAttributes(
                [.modificationDate: Date().addingTimeInterval(10)], ofItemAtPath: source.path)
            let destination = try FileSystem.openForAppending(dir.appendingPathComponent("copy.jpg").path)
            defer { FileSystem.close(destination) }
            do {
                _ = try reader.copy(to: destination)
                Issue.record("a file changed after it was read was copied")
            } catch let error as AlbumError {
                #expect(error.code == .fileUnreadable)
                #expect(error.message.contains("changed while it was being saved"), "\(error.message)")
            }
        }
    }
}
