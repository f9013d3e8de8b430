#if os(Linux)
    import AlbumKitCore
    import AlbumServer
    import Foundation
    import Glibc
    import Testing

    /// What a server's start-up forgets of the uploads folder it shares with the server before it
    /// (``UploadStore/removeAbandoned(olderThan:now:)``): an upload whose creation was never answered,
    /// its server killed while the bytes of the request arrived, and nothing else.
    @Suite("album serve's uploads at start-up")
    struct UploadStoreStartUpTests {
        static func withStore(_ body: (_ folder: String, _ store: UploadStore) throws -> Void) throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("uploads-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }  // a temporary folder: left behind at worst
            try body(folder.path, try UploadStore(folder: folder.path + "/uploads"))
        }

        static let photo = UploadStore.Description(albumTitle: "Party", name: "IMG_1.JPG", length: 2_000_000)

        @Test func aCreationNeverAnsweredGoesOnceItsRequestIsGone() throws {
            try Self.withStore { _, store in
                let created = try store.create(Self.photo)
                // Another server starting while the request lives (its mark locked): kept.
                let next = try UploadStore(folder: store.folder)
                #expect(next.removeAbandoned() == 0)
                #expect(next.state(of: created.id) != nil)
                // The request's server killed: the kernel lets go of its locks.
                FileSystem.close(created.file)
                FileSystem.close(created.mark)
                #expect(next.removeAbandoned() == 1)
                #expect(next.state(of: created.id) == nil)
                #expect(!FileManager.default.fileExists(atPath: store.folder + "/" + created.id))
            }
        }

        @Test func anAnsweredUploadStaysForItsPhoneToGoOn() throws {
            try Self.withStore { _, store in
                let created = try store.create(Self.photo)
                try FileSystem.write(created.file, Array(repeating: 0xFF, count: 1000))
                try store.answered(created.id)
                FileSystem.close(created.file)
                FileSystem.close(created.mark)
                #expect(store.removeAbandoned() == 0)
                #expect(store.state(of: created.id)?.offset == 1000)
                // A week without an append: it goes.
                #expect(store.removeAbandoned(now: Int(time(nil)) + 8 * 86_400) == 1)
            }
        }

        /// A server killed as it made an upload leaves a hidden folder (`.new-ID`, with or without
        /// its mark): left alone while it may be another server's creation under way, removed once
        /// over a minute old. A folder by its id with a mark nobody holds goes at once.
        @Test func aServerKilledAsItMadeTheFolderLeavesNothing() throws {
            try Self.withStore { _, store in
                let empty = store.folder + "/.new-00000000-0000-4000-8000-000000000001"
                let hiddenMarked = store.folder + "/.new-00000000-0000-4000-8000-000000000002"
                let marked = store.folder + "/00000000-0000-4000-8000-000000000003"
                for folder in [empty, hiddenMarked, marked] {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
                }
                for folder in [hiddenMarked, marked] {
                    try Data().write(to: URL(fileURLWithPath: folder + "/.creating"))
                }
                #expect(store.removeAbandoned() == 1)
                #expect(!FileManager.default.fileExists(atPath: marked))
                #expect(store.removeAbandoned(now: Int(time(nil)) + 120) == 2)
                #expect(try FileManager.default.contentsOfDirectory(atPath: store.folder).isEmpty)
            }
        }

        /// A creation's folder is named by its id only once marked, locked and described: nothing
        /// hidden is left by a creation that succeeded.
        @Test func aCreationShowsItsFolderWhole() throws {
            try Self.withStore { _, store in
                let created = try store.create(Self.photo)
                let names = try FileManager.default.contentsOfDirectory(atPath: store.folder)
                #expect(names == [created.id])
                #expect(store.state(of: created.id) != nil)
                #expect(try UploadStore(folder: store.folder).removeAbandoned() == 0)
            }
        }

        /// A server killed while it removed an upload (its description gone, its bytes not yet)
        /// leaves a folder the next start-ups remove once it is over a minute old.
        @Test func anUploadHalfRemovedGoes() throws {
            try Self.withStore { _, store in
                let created = try store.create(Self.photo)
                try store.answered(created.id)
                FileSystem.close(created.file)
                FileSystem.close(created.mark)
                let own = store.folder + "/" + created.id
                try FileManager.default.removeItem(atPath: own + "/upload.json")
                #expect(store.removeAbandoned() == 0)
                #expect(store.removeAbandoned(now: Int(time(nil)) + 120) == 1)
                #expect(!FileManager.default.fileExists(atPath: own))
            }
        }

        @Test func nothingOutsideTheStoreIsRemoved() throws {
            try Self.withStore { folder, store in
                let outside = folder + "/outside.jpg"
                try Data("not the store's".utf8).write(to: URL(fileURLWithPath: outside))
                // A mark that is a link to a file outside: not a mark; the folder stays, and the file.
                let linkedMark = try store.create(Self.photo)
                FileSystem.close(linkedMark.mark)
                let first = store.folder + "/" + linkedMark.id
                try FileManager.default.removeItem(atPath: first + "/.creating")
                try FileManager.default.createSymbolicLink(atPath: first + "/.creating", withDestinationPath: outside)
                // An upload's bytes that are a link to a file outside: the store's own files go, the
                // link is left alone (the removal gate removes regular files only), and so is the file.
                let linkedBytes = try store.create(Self.photo)
                FileSystem.close(linkedBytes.file)
                FileSystem.close(linkedBytes.mark)
                let second = store.folder + "/" + linkedBytes.id
                try FileManager.default.removeItem(atPath: second + "/IMG_1.JPG")
                try FileManager.default.createSymbolicLink(atPath: second + "/IMG_1.JPG", withDestinationPath: outside)
                #expect(store.removeAbandoned() == 0)
                #expect(FileManager.default.fileExists(atPath: first + "/upload.json"))
                #expect(!FileManager.default.fileExists(atPath: second + "/upload.json"))
                #expect(!FileManager.default.fileExists(atPath: second + "/.creating"))
                #expect(try String(contentsOfFile: outside, encoding: .utf8) == "not the store's")
            }
        }
        /// A description is read from disk: a file name in it that is a path (`../../outside.jpg`)
        /// names no upload, so nothing is read, appended to or saved from outside the upload's folder.
        @Test func aDescriptionNamingAPathIsNoUpload() throws {
            try Self.withStore { folder, store in
                let outside = folder + "/outside.jpg"
                try Data("not the store's".utf8).write(to: URL(fileURLWithPath: outside))
                let created = try store.create(Self.photo)
                try store.answered(created.id)
                FileSystem.close(created.file)
                FileSystem.close(created.mark)
                var forged = created.description
                forged.name = "../../outside.jpg"
                try JSONEncoder().encode(forged).write(
                    to: URL(fileURLWithPath: store.folder + "/" + created.id + "/upload.json"))
                #expect(store.state(of: created.id) == nil)
                #expect(throws: (any Error).self) { _ = try store.openForAppending(created.id, at: 15) }
                #expect(try String(contentsOfFile: outside, encoding: .utf8) == "not the store's")
            }
        }

        /// One share link's guests hold at most ``UploadStore/Limits/uploadsInProgressPerLink``
        /// uploads at once: the owner and the guests of another link still start theirs.
        @Test func aLinksGuestsCannotTakeEveryPlace() throws {
            try Self.withStore { folder, _ in
                var limits = UploadStore.Limits()
                limits.uploadsInProgressPerLink = 3
                let store = try UploadStore(folder: folder + "/limited", limits: limits)
                func upload(through link: String?) -> UploadStore.Description {
                    UploadStore.Description(albumTitle: "Party", name: "IMG_1.JPG", length: 10, linkID: link)
                }
                var made = try (0..<3).map { _ in try store.create(upload(through: "0123456789")) }
                #expect(throws: AlbumError.self) { _ = try store.create(upload(through: "0123456789")) }
                made.append(try store.create(upload(through: "abcdefabcd")))
                made.append(try store.create(upload(through: nil)))
                for upload in made {
                    FileSystem.close(upload.file)
                    FileSystem.close(upload.mark)
                }
            }
        }
        /// A file name from a request is kept only when it is a plain name: a path keeps its last
        /// part, and one with a control character or a mark that turns text around is `upload`.
        @Test func aFileNameThatHidesItsEndIsNotKept() throws {
            try Self.withStore { _, store in
                for (given, kept) in [
                    ("IMG_1.JPG", "IMG_1.JPG"), ("../../IMG_2.JPG", "IMG_2.JPG"), ("IMG_3\u{202E}gpj.exe", "upload"),
                    ("IMG_4\u{2067}.JPG", "upload"), ("IMG_5\u{1B}[2J.JPG", "upload"), ("IMG_6\u{85}.JPG", "upload"),
                    ("Été à Nice.heic", "Été à Nice.heic"),
                ] {
                    let created = try store.create(UploadStore.Description(albumTitle: "Party", name: given, length: 1))
                    FileSystem.close(created.file)
                    FileSystem.close(created.mark)
                    #expect(created.description.name == kept, "\(given.debugDescription)")
                }
            }
        }
    }
#endif
