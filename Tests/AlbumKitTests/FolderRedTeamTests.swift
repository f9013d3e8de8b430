import Foundation
import Testing

@testable import AlbumKitCore

/// Cases a review of the batch staging and naming changes found.
@Suite("Folder library: slashes with combining marks, staging removed mid-batch")
struct FolderRedTeamTests {
    @Test func aSlashFollowedByACombiningMarkNeverLeavesANameOrTheLibrary() async throws {
        // Given titles and file names where "/" and a combining accent form one Character
        let slashAccent = "/\u{301}"
        #expect(FolderAlbumPath.levels(of: "x\(slashAccent)y") == ["x", "\u{301}y"])
        #expect(!FolderNaming.safeComponent("a\(slashAccent)b", fallback: "X").unicodeScalars.contains("/"))
        #expect(!FolderNaming.fileName(original: "\(slashAccent)etc.jpg", format: .jpeg).unicodeScalars.contains("/"))
        try await FolderFixture.withRoot { root, parent in
            // When an album is created whose title starts with such a slash
            let library = try FolderFixture.library(root)
            let probe = "albumkit-probe-\(UUID().uuidString)"
            let saved = try await library.album(titled: "\(slashAccent)\(probe)").save(
                .data(FolderFixture.jpeg(), filename: "\(slashAccent)\(probe).jpg"))
            // Then its folder and file are inside the library, not at the file system's root
            #expect(saved.albumOutcome == .created)
            #expect(!FileManager.default.fileExists(atPath: "/\u{301}\(probe)"))
            #expect(FolderFixture.visible(in: root) == ["\u{301}\(probe)"])
            #expect(FolderFixture.visible(in: parent).sorted() == ["Pictures"])
        }
    }

    @Test func aStemOfZeroWidthSpacesGetsADatedName() {
        let name = FolderNaming.fileName(
            original: "\u{200B}\u{200B}.jpg", format: .jpeg, date: Date(timeIntervalSince1970: 0))
        #expect(name.hasPrefix("IMG_1970"))
    }

    @Test func stagingRemovedMidBatchIsRecreatedForTheRest() async throws {
        try await FolderFixture.withRoot { root, _ in
            // Given a folder library and a batch of 24 photos
            let backend = FolderBackend(root: root, trash: FolderFixture.trash(root))
            let media = (0..<24).map { Media.data(FolderFixture.jpeg("batch \($0)"), filename: "IMG_\($0).jpg") }
            let staging = root.appendingPathComponent(".albumkit/staging")
            let removed = Locked(false)
            // When `.albumkit/staging/` is removed as soon as the first photo is staged
            let results = await backend.stage(media) {
                let first = removed.withLock { done -> Bool in
                    defer { done = true }
                    return !done
                }
                if first { try? FileManager.default.removeItem(at: staging) }
            }
            for case .success(let item) in results { await backend.discard(item) }
            // Then the folder is made again and the rest are staged (one photo staged at that very
            // moment on the other thread may fail; before, every later photo of the batch failed)
            #expect(removed.withLock { $0 })
            let failed = results.filter { if case .failure = $0 { true } else { false } }.count
            #expect(failed <= 1, "\(failed) of 24 failed")
            #expect(FileManager.default.fileExists(atPath: staging.path))
        }
    }
}
