import AlbumKitConformance
import Foundation
import Testing

@testable import AlbumKitCore

/// Share links as AlbumKit keeps them: PIN hashes that are PBKDF2-HMAC-SHA256 bit for bit, the file
/// the catalog and folder libraries keep them in (atomic, locked, a damaged one set aside), and the
/// one API on `PhotoLibrary`, on the in-memory library and on a kind that keeps none.
@Suite struct ShareLinkTests {
    @Test("PBKDF2-HMAC-SHA256 gives the published test vectors (RFC 7914 §11 and the usual password/salt ones)")
    func pbkdf2Vectors() {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(
            hex(ShareLinkSecret.pbkdf2("password", Array("salt".utf8), 1))
                == "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b")
        #expect(
            hex(ShareLinkSecret.pbkdf2("password", Array("salt".utf8), 4096))
                == "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a")
        #expect(
            hex(ShareLinkSecret.pbkdf2("passwd", Array("salt".utf8), 1))
                == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc")
    }

    @Test("A PIN hash matches its PIN only, reads back from its text, and refuses other forms")
    func pinHash() throws {
        let made = ShareLinkSecret.PINHash(pin: "2468")
        #expect(made.matches("2468"))
        #expect(!made.matches("2469"))
        #expect(!made.matches(""))
        let read = try #require(ShareLinkSecret.PINHash(parsing: made.text))
        #expect(read == made && read.matches("2468"))
        #expect(ShareLinkSecret.PINHash(pin: "2468").text != made.text, "each hash has its own salt")
        for bad in [
            "", "sha256$1$00$00", "pbkdf2-sha256$10$0011223344556677$" + String(repeating: "0", count: 64),
            "pbkdf2-sha256$100000$00$" + String(repeating: "0", count: 64),
            "pbkdf2-sha256$100000$0011223344556677$abc",
        ] {
            #expect(ShareLinkSecret.PINHash(parsing: bad) == nil, "\(bad)")
        }
    }

    static func link(_ id: String, album: String = "album-1") -> ShareLink {
        ShareLink(
            id: id, albumID: album, rights: .view, createdAt: Date(timeIntervalSince1970: 1_800_000_000),
            expiresAt: nil,
            tokenHash: ShareLinkSecret.tokenHash(ShareLinkSecret.randomHex(bytes: 32)), pinHash: nil)
    }

    @Test("The links file: written atomically, read back, shared by every writer under its lock")
    func fileKeepsLinks() async throws {
        try await Fixture.withTemporaryDirectory { folder in
            let file = ShareLinkFile(root: folder.path, folder: "shares")
            #expect(try file.read().isEmpty, "no file yet: no links")
            try file.update { $0.append(Self.link("0123456789")) }
            // Sixteen writers at once, each with its own descriptor (flock serialises them): none is lost.
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<16 {
                    group.addTask {
                        // A writer that failed shows as a link missing from the count below.
                        _ = try? file.update { $0.append(Self.link(String(format: "%010x", 0xa0 + index))) }
                    }
                }
            }
            let links = try file.read()
            #expect(links.count == 17)
            #expect(Set(links.map(\.id)).count == 17)
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/shares").sorted()
            #expect(names == ["links.json", "lock"], "no staged copy is left: \(names)")
        }
    }

    @Test(
        "A damaged links file opens nothing, says so, and the next change sets it aside; a staged copy left by a crash goes"
    )
    func damagedFile() async throws {
        try await Fixture.withTemporaryDirectory { folder in
            let file = ShareLinkFile(root: folder.path, folder: "shares")
            try file.update { $0.append(Self.link("0123456789")) }
            let path = folder.path + "/shares/links.json"
            try Data("{\"links\": [tor".utf8).write(to: URL(fileURLWithPath: path))
            try Data("half".utf8).write(to: URL(fileURLWithPath: folder.path + "/shares/.links.00112233445566ff.tmp"))
            try Data("mine".utf8).write(to: URL(fileURLWithPath: folder.path + "/shares/notes.txt"))
            let error = try #require(await Fixture.errorCode { try file.read() })
            #expect(error == .libraryCorrupt)
            try file.update { $0.append(Self.link("abcdefabcd")) }
            #expect(try file.read().map(\.id) == ["abcdefabcd"])
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/shares").sorted()
            #expect(names.contains { $0.hasPrefix("links.damaged-") }, "the damaged file is kept aside: \(names)")
            #expect(!names.contains(".links.00112233445566ff.tmp"), "the staged copy is removed")
            #expect(names.contains("notes.txt"), "a file AlbumKit did not make stays")
        }
    }

    @Test(
        "A file outside hard-linked as the links file, its lock or a staged copy is never written through, and the links go on",
        arguments: ["links.json (a links file)", "links.json (not one)", "lock", ".links.00112233445566ff.tmp"])
    func hardLinksPlantedInTheFolderChangeNothingOutside(planted: String) async throws {
        try await Fixture.withTemporaryDirectory { folder in
            let library = folder.appendingPathComponent("library")
            try FileManager.default.createDirectory(at: library, withIntermediateDirectories: false)
            let file = ShareLinkFile(root: library.path, folder: "shares")
            try file.update { $0.append(Self.link("0123456789")) }
            // The victim: another library's links (an attacker's own), or a private file of the user's.
            let victim = folder.appendingPathComponent("victim")
            let bytes =
                planted == "links.json (a links file)"
                ? try Data(contentsOf: library.appendingPathComponent("shares/links.json")) : Data("private\n".utf8)
            try bytes.write(to: victim)
            let name = String(planted.prefix { $0 != " " })
            let target = library.appendingPathComponent("shares/" + name)
            try? FileManager.default.removeItem(at: target)  // absent for the staged copy's name
            try FileManager.default.linkItem(at: victim, to: target)
            try file.update { $0.append(Self.link("abcdefabcd")) }
            try file.update { $0.removeAll { $0.id == "0123456789" } }
            #expect(try Data(contentsOf: victim) == bytes, "the file outside keeps its bytes")
            #expect(try file.read().map(\.id) == ["abcdefabcd"])
            let names = try FileManager.default.contentsOfDirectory(atPath: library.path + "/shares")
            #expect(!names.contains { ShareLinkFile.isStagedCopy($0) }, "\(names)")
        }
    }

    @Test("A record that is not one AlbumKit writes opens nothing (a token that is not a SHA-256, a bad id)")
    func malformedRecordsAreLeftOut() async throws {
        try await Fixture.withTemporaryDirectory { folder in
            let file = ShareLinkFile(root: folder.path, folder: "shares")
            try file.update { $0.append(Self.link("0123456789")) }
            let path = folder.path + "/shares/links.json"
            let good = try String(contentsOfFile: path, encoding: .utf8)
            let forged = good.replacingOccurrences(
                of: "\"links\":[",
                with:
                    "\"links\":[{\"album\":\"x\",\"created\":1,\"id\":\"../../etc\",\"rights\":\"view\",\"token\":\"abc\"},"
            )
            try forged.write(toFile: path, atomically: true, encoding: .utf8)
            #expect(try file.read().map(\.id) == ["0123456789"])
        }
    }

    @Test("The in-memory library makes, finds by token, checks PINs with a limit, lists and revokes links")
    func inMemoryLibrary() async throws {
        let library = PhotoLibrary.inMemory()
        let saved = try await library.album(titled: "Trip").save(.data(Fixture.tinyJPEG("share"), filename: "a.jpg"))
        let albumID = try #require(saved.albumID)
        let made = try await library.createShareLink(forAlbumWithID: albumID, rights: .viewAndAdd, pin: "2468")
        #expect(made.token.count == 64 && made.link.id.count == 10)
        #expect(made.link.tokenHash == ShareLinkSecret.tokenHash(made.token) && made.link.tokenHash != made.token)
        let found = try #require(await library.shareLink(forToken: made.token))
        #expect(found.id == made.link.id && found.requiresPIN && found.rights == .viewAndAdd)
        #expect(try await library.shareLink(forToken: String(repeating: "0", count: 64)) == nil)
        #expect(try await library.checkPIN("2468", of: found))
        for _ in 0..<ShareLinkSecret.pinAttemptLimit { #expect(try await !library.checkPIN("0000", of: found)) }
        let locked = try #require(await library.shareLink(forToken: made.token))
        #expect(locked.isLocked)
        #expect(try await !library.checkPIN("2468", of: locked), "a locked link opens for no PIN")
        #expect(
            await Fixture.errorCode { try await library.createShareLink(forAlbumWithID: "no-such-album") }
                == .albumNotFound)
        #expect(
            await Fixture.errorCode {
                try await library.createShareLink(forAlbumWithID: albumID, expiresAt: Date(timeIntervalSinceNow: -1))
            } == .invalidArgument)
        #expect(
            await Fixture.errorCode { try await library.createShareLink(forAlbumWithID: albumID, pin: "12") }
                == .invalidArgument)
        try await library.revokeShareLink(withID: made.link.id)
        #expect(try await library.shareLinks().isEmpty)
        #expect(await Fixture.errorCode { try await library.revokeShareLink(withID: made.link.id) } == .invalidArgument)
    }

    @Test("A kind that keeps no share links (Photos) answers notSupported")
    func kindWithoutLinks() async throws {
        let library = PhotoLibrary(backend: CapabilityTests.SaveOnlyBackend())
        #expect(await Fixture.errorCode { try await library.shareLinks() } == .notSupported)
        #expect(await Fixture.errorCode { try await library.revokeShareLink(withID: "0123456789") } == .notSupported)
    }

    /// A PIN's PBKDF2 runs on a thread of its own: while several guests' PINs are checked at once,
    /// work on the cooperative threads (every other request of `album serve`) still starts at once.
    @Test func pinChecksLeaveTheCooperativeThreadsFree() async throws {
        let library = PhotoLibrary.inMemory()
        let saved = try await library.album(titled: "Trip").save(.data(Fixture.tinyJPEG("pins"), filename: "a.jpg"))
        let made = try await library.createShareLink(forAlbumWithID: try #require(saved.albumID), pin: "2468")
        let link = try #require(await library.shareLink(forToken: made.token))
        let clock = ContinuousClock()
        // How long one check takes here (this build, this machine's load).
        let before = clock.now
        #expect(try await library.checkPIN("2468", of: link))
        let single = clock.now - before
        // The least of three tries: in a whole test run other tests hold the cooperative threads at
        // times too, but only checks on those threads make every try wait.
        var waits: [Duration] = []
        for _ in 0..<3 {
            let checks = (0..<(4 * Blocking.width)).map { _ in
                Task.detached { try await library.checkPIN("2468", of: link) }
            }
            // From a thread outside the pool, once the checks are under way: how long a new task waits.
            waits.append(
                await withCheckedContinuation { (continuation: CheckedContinuation<Duration, Never>) in
                    Thread.detachNewThread {
                        usleep(20_000)
                        let started = DispatchSemaphore(value: 0)
                        let asked = clock.now
                        Task { started.signal() }
                        started.wait()
                        continuation.resume(returning: clock.now - asked)
                    }
                })
            for check in checks { #expect(try await check.value) }
        }
        let waited = waits.min()!
        #expect(waited < single / 2, "a task waited \(waited) behind PIN checks of \(single) each")
    }
}
