import AlbumKitConformance
import Foundation
import Testing

@testable import AlbumKitCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// ``FileSystem/walk(_:leavingOut:)``, which `album import` and `save -r` use: nothing under the
/// folder is passed over without a word. Before, names that are not UTF-8 were skipped, and links,
/// pipes and unreadable folders left out, all in silence.
@Suite struct FolderWalkTests {
    /// Creates the file `bytes` (a path that need not be UTF-8) holding `contents`.
    static func create(_ bytes: [UInt8], _ contents: Data = Data("x".utf8)) throws {
        let fd = FileSystemPath(bytes: bytes).withCString { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        try #require(fd >= 0, "cannot create \(String(decoding: bytes, as: UTF8.self))")
        defer { close(fd) }
        _ = contents.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// Every name of a large folder comes back whole, the longest a file system allows (255 bytes)
    /// included: names are read in place from each directory record, which may be shorter than the
    /// 256 bytes `dirent` declares (copying the whole field read past glibc's buffer and crashed).
    @Test func everyNameOfALargeFolderIsReadWhole() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            var expected: Set<String> = []
            for index in 0..<3_000 {
                let length = 1 + index % 255
                let stem = String(index)
                let name = stem + String(repeating: "x", count: max(0, length - stem.count))
                try Self.create(Array(dir.appendingPathComponent(name).path.utf8))
                expected.insert(name)
            }
            let folder = try FileSystem.openDirectory(dir.path)
            defer { FileSystem.close(folder) }
            let names = try FileSystem.entries(in: folder).map(\.name)
            #expect(names.count == expected.count)
            #expect(Set(names) == expected)
            #expect(names.contains { $0.utf8.count == 255 })
        }
    }

    /// Each file a walk finds comes with its status, read by its name in its folder (one `stat`
    /// each, counted through the platform layer, a file reached through a link included): what a
    /// save recognises it by and checks the file it opens against, without asking again.
    @Test func eachFileFoundComesWithItsStatus() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let tree = dir.appendingPathComponent("tree")
            try FileManager.default.createDirectory(
                at: tree.appendingPathComponent("inner"), withIntermediateDirectories: true)
            try Data("first".utf8).write(to: tree.appendingPathComponent("a.jpg"))
            try Data("second, longer".utf8).write(to: tree.appendingPathComponent("inner/b.jpg"))
            try FileManager.default.createSymbolicLink(
                at: tree.appendingPathComponent("c.jpg"), withDestinationURL: tree.appendingPathComponent("a.jpg"))
            let stats = FaultInjector.count(.stat, under: tree.path)
            defer { FaultInjector.remove(stats) }
            let found = try FileSystem.walk(FileSystemPath(tree.path))
            #expect(FaultInjector.calls(stats) == 3)
            #expect(found.count == 3)
            for file in found {
                let status = try #require(file.status, "\(file.path)")
                #expect(status == FileSystem.fileStatus(atPath: file.path))
                #expect(status.kind == .regular)
            }
        }
    }

    @Test func everyEntryIsFoundOrReportedAndNamesNeedNotBeUTF8() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let root = Array(dir.appendingPathComponent("tree").path.utf8)
            let slash = UInt8(ascii: "/")
            #expect(mkdir(root.map { CChar(bitPattern: $0) } + [0], 0o755) == 0)
            let oddFolder = root + [slash] + Array("odd".utf8) + [0xFF] + Array("dir".utf8)
            #expect(FileSystemPath(bytes: oddFolder).withCString { mkdir($0, 0o755) } == 0)
            try Self.create(root + [slash] + Array("bad".utf8) + [0xFE, 0xFF] + Array(".jpg".utf8))
            try Self.create(oddFolder + Array("/in.jpg".utf8))
            try Self.create(root + Array("/ok.jpg".utf8))
            try Self.create(root + Array("/.hidden.jpg".utf8))
            let tree = dir.appendingPathComponent("tree")
            try FileManager.default.createDirectory(
                at: tree.appendingPathComponent("real"), withIntermediateDirectories: false)
            try Self.create(Array(tree.appendingPathComponent("real/r.jpg").path.utf8))
            try FileManager.default.createSymbolicLink(
                atPath: tree.appendingPathComponent("linkdir").path, withDestinationPath: "real")
            try FileManager.default.createSymbolicLink(
                atPath: tree.appendingPathComponent("linked.jpg").path, withDestinationPath: "real/r.jpg")
            try FileManager.default.createSymbolicLink(
                atPath: tree.appendingPathComponent("broken.jpg").path, withDestinationPath: "nowhere")
            #expect(mkfifo(tree.appendingPathComponent("pipe.jpg").path, 0o644) == 0)
            try FileManager.default.createDirectory(
                at: tree.appendingPathComponent("locked"), withIntermediateDirectories: false)
            try Self.create(Array(tree.appendingPathComponent("locked/l.jpg").path.utf8))
            // A folder that cannot be listed (root may read any folder: the refusal is injected).
            FaultInjector.inject(.read, under: tree.appendingPathComponent("locked").path, errno: EACCES)

            // A catalog library inside the tree: never entered (its originals are not the caller's).
            let catalog = tree.appendingPathComponent("lib.albumlibrary")
            try FileManager.default.createDirectory(
                at: catalog.appendingPathComponent("originals/ab"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(
                at: catalog.appendingPathComponent("journal"), withIntermediateDirectories: true)
            try Data().write(to: catalog.appendingPathComponent("journal/saves.jsonl"))
            try Self.create(Array(catalog.appendingPathComponent("originals/ab/abc.jpg").path.utf8))

            let found = try FileSystem.walk(FileSystemPath(bytes: root))
            func kind(_ found: FileSystem.Found) -> String {
                switch found.kind {
                case .file: "file"
                case .special: "special"
                case .linkToFolder: "linkToFolder"
                case .brokenLink: "brokenLink"
                case .unreadableFolder(let error): "unreadable \(error.errno == EACCES)"
                case .catalogLibrary: "catalogLibrary"
                }
            }
            let seen = found.map { "\(String(decoding: $0.relative.bytes, as: UTF8.self)) \(kind($0))" }
            #expect(
                seen == [
                    "bad\u{FFFD}\u{FFFD}.jpg file", "broken.jpg brokenLink", "lib.albumlibrary catalogLibrary",
                    "linkdir linkToFolder", "linked.jpg file",
                    "locked unreadable true", "odd\u{FFFD}dir/in.jpg file", "ok.jpg file", "pipe.jpg special",
                    "real/r.jpg file",
                ])
            // The bytes are kept whole: each file found opens under its exact path.
            for item in found {
                guard case .file = item.kind else { continue }
                #expect(FileSystem.fileStatus(atPath: item.path)?.kind == .regular, "\(item.path)")
            }
            #expect(found.first?.path.bytes == root + [slash] + Array("bad".utf8) + [0xFE, 0xFF] + Array(".jpg".utf8))

            // What the caller leaves out is not entered, nor reported.
            let filtered = try FileSystem.walk(FileSystemPath(bytes: root)) { relative, isFolder in
                isFolder || relative.bytes.starts(with: Array("b".utf8))
            }
            #expect(
                filtered.map { String(decoding: $0.relative.bytes, as: UTF8.self) } == [
                    "linked.jpg", "ok.jpg", "pipe.jpg",
                ])
        }
    }

    @Test func aRootThatCannotBeReadThrowsAndALinkedRootIsFollowed() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let real = dir.appendingPathComponent("real")
            try FileManager.default.createDirectory(at: real, withIntermediateDirectories: false)
            try Self.create(Array(real.appendingPathComponent("a.jpg").path.utf8))
            let link = dir.appendingPathComponent("link")
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real")
            // The user named the link: it is followed.
            let found = try FileSystem.walk(FileSystemPath(link.path))
            #expect(found.map(\.path.description) == [link.path + "/a.jpg"])
            #expect(throws: SystemError.self) {
                try FileSystem.walk(FileSystemPath(dir.appendingPathComponent("none").path))
            }
            FaultInjector.inject(.read, under: real.path, errno: EACCES)
            #expect(throws: SystemError.self) { try FileSystem.walk(FileSystemPath(real.path)) }
        }
    }
}
