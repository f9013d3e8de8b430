import AlbumKitConformance
import Foundation
import Testing

@testable import AlbumKitCore

#if os(Linux)
    /// A ``FileSystem/Descriptor`` owns its file descriptor: closed when its last reference goes,
    /// closed once however often it is closed by hand, and never a number some other file took since.
    @Suite struct OwningDescriptorTests {
        /// What descriptor `fd` of this process is open on now, `nil` when it is not open. Tests run
        /// in parallel, so a number freed may be taken by another test's file at once: a check
        /// compares the path, not whether the number is open.
        func target(of fd: Int32) -> String? {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")
        }

        @Test func aDescriptorClosesWhenItsLastReferenceGoes() async throws {
            try await Fixture.withTemporaryDirectory { dir in
                let dir = dir.resolvingSymlinksInPath()  // as /proc names it
                let path = dir.appendingPathComponent("photo.jpg").path
                _ = FileManager.default.createFile(atPath: path, contents: Data([1, 2, 3]))
                var number: Int32 = -1
                do {
                    let (file, _) = try FileSystem.openForReading(path)
                    number = file.fd
                    #expect(target(of: number) == path)
                }
                #expect(target(of: number) != path)
            }
        }

        /// Closed by hand, then released: the number, taken meanwhile by another file, stays that
        /// file's (a second `close` would have closed it).
        @Test func aDescriptorClosedByHandIsNotClosedAgain() async throws {
            try await Fixture.withTemporaryDirectory { dir in
                let dir = dir.resolvingSymlinksInPath()  // as /proc names it
                let first = dir.appendingPathComponent("first").path
                let second = dir.appendingPathComponent("second").path
                _ = FileManager.default.createFile(atPath: first, contents: Data([1]))
                _ = FileManager.default.createFile(atPath: second, contents: Data([2]))
                var early: FileSystem.Descriptor? = try FileSystem.openForReading(first).0
                let number = try #require(early).fd
                FileSystem.close(try #require(early))
                FileSystem.close(try #require(early))  // again: nothing
                // The lowest free number: the one just closed, unless another test took it first.
                let (later, _) = try FileSystem.openForReading(second)
                early = nil
                #expect(target(of: later.fd) == second)
                if later.fd == number { #expect(try FileSystem.readToEnd(later) == [2]) }
            }
        }

        /// A folder walk that fails half-way leaves none of the levels it opened open.
        @Test func aWalkThatFailsLeavesNoLevelOpen() async throws {
            try await Fixture.withTemporaryDirectory { dir in
                let dir = dir.resolvingSymlinksInPath()  // as /proc names it
                let root = dir.appendingPathComponent("library")
                try FileManager.default.createDirectory(
                    at: root.appendingPathComponent("a/b"), withIntermediateDirectories: true)
                let rootFolder = try FileSystem.openDirectory(root.path)
                #expect(throws: SystemError.self) {
                    _ = try FileSystem.openDirectory(components: ["a", "b", "missing"], in: rootFolder)
                }
                let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap {
                    target(of: Int32($0) ?? -1)
                }
                #expect(!open.contains { $0.hasPrefix(root.path + "/") })
            }
        }
    }
#endif
