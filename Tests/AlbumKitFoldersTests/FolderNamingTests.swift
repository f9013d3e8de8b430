import Foundation
import Testing

@testable import AlbumKitCore
@testable import AlbumKitFolders

@Suite("Folder naming")
struct FolderNamingTests {
    private func folder(_ title: String) throws -> String { FolderNaming.folderName(for: try AlbumTitle(title)) }

    @Test(arguments: [
        ("Trips", "Trips"),
        ("AC/DC", "AC\u{2215}DC"),
        ("a/b/../c", "a\u{2215}b\u{2215}..\u{2215}c"),
        (".", "_"),
        ("..", "__"),
        (".hidden", "_hidden"),
        ("...Dots", "___Dots"),
        ("Trips...", "Trips"),
        ("Trips . .", "Trips"),
        ("  Spaced  ", "Spaced"),
        ("Touch Code Magazine", "Touch Code Magazine"),
        ("@eaDir", "@eaDir"),
    ])
    func titleToFolderName(_ title: String, _ expected: String) throws {
        #expect(try folder(title) == expected)
    }

    @Test func nfdTitleBecomesNFCFolder() throws {
        // Given a decomposed "Café"
        let nfd = "Cafe\u{301}"
        // Then the folder name is precomposed
        #expect(try folder(nfd) == "Caf\u{E9}")
        #expect(try folder(nfd).unicodeScalars.count == 4)
    }

    @Test func longTitleStaysWithin255Bytes() throws {
        // Given a 255-byte title whose slashes grow to 3 bytes each
        let title = String(repeating: "a/", count: 127) + "a"
        let name = try folder(title)
        #expect(name.utf8.count <= 255)
        #expect(!name.hasSuffix("."))
        // And a collision suffix still fits
        #expect(FolderNaming.folderName(name, attempt: 12).utf8.count <= 255)
        #expect(FolderNaming.folderName(name, attempt: 12).hasSuffix(" 12"))
    }

    @Test func everyMappingIsSafe() throws {
        // Given awkward titles
        let titles = [
            "/", "//", "./", "../..", ". .", ".\u{2007}.", "x\u{00A0}.", "🙂" + String(repeating: "é", count: 120),
            String(repeating: "/", count: 200), "\u{200B}", "a\\b:c*d?e\"f<g>h|i",
        ]
        for raw in titles {
            guard let title = try? AlbumTitle(raw) else { continue }
            let name = FolderNaming.folderName(for: title)
            // Then the name is one visible, non-empty, NFC component of at most 255 bytes
            #expect(!name.isEmpty, "\(raw)")
            #expect(!name.contains("/") && !name.contains("\u{0}"), "\(raw)")
            #expect(name != "." && name != ".." && !name.hasPrefix("."), "\(raw)")
            #expect(name.last.map { $0 != "." && !$0.isWhitespace } ?? false, "\(raw)")
            #expect(name.utf8.count <= 255, "\(raw)")
            #expect(name == name.precomposedStringWithCanonicalMapping, "\(raw)")
        }
    }

    @Test(arguments: [
        ("IMG_0001.JPG", MediaFormat.jpeg, "IMG_0001.JPG"),
        ("photo.jpeg", .jpeg, "photo.jpeg"),
        ("x.png", .jpeg, "x.jpg"),
        ("x.jpg", .png, "x.png"),
        ("scan.2024", .jpeg, "scan.2024.jpg"),
        ("noext", .png, "noext.png"),
        (".jpg", .jpeg, "_jpg.jpg"),
        (".hidden.png", .png, "_hidden.png"),
        ("clip.MOV", .mov, "clip.MOV"),
        ("clip.mov", .mp4, "clip.mp4"),
        ("IMG_1.HEIC", .heic, "IMG_1.HEIC"),
        ("dir/sub/name.jpg", .jpeg, "name.jpg"),
    ])
    func fileNameFollowsContent(_ original: String, _ format: MediaFormat, _ expected: String) {
        #expect(FolderNaming.fileName(original: original, format: format) == expected)
    }

    @Test func fileNameWithoutOriginal() {
        // Given no original name
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let photo = FolderNaming.fileName(original: nil, format: .jpeg, date: date)
        let video = FolderNaming.fileName(original: nil, format: .mp4, date: date)
        // Then a camera-style name is made
        #expect(photo.hasPrefix("IMG_") && photo.hasSuffix(".jpg"))
        #expect(video.hasPrefix("VID_") && video.hasSuffix(".mp4"))
    }

    @Test func collisionSuffixes() {
        #expect(FolderNaming.fileName("IMG.jpg", attempt: 1) == "IMG.jpg")
        #expect(FolderNaming.fileName("IMG.jpg", attempt: 2) == "IMG 2.jpg")
        #expect(FolderNaming.fileName("a.b.png", attempt: 3) == "a.b 3.png")
        let long = String(repeating: "x", count: 251) + ".jpg"
        #expect(FolderNaming.fileName(original: long, format: .jpeg).utf8.count <= 255)
        #expect(FolderNaming.fileName(long, attempt: 99).utf8.count <= 255)
        #expect(FolderNaming.fileName(long, attempt: 99).hasSuffix(" 99.jpg"))
    }

    @Test func derivedIdentifiersAreStableAndDistinct() {
        let a = FolderAlbum.derivedID(forFolderNamed: "Trips")
        #expect(a == FolderAlbum.derivedID(forFolderNamed: "Trips"))
        #expect(a == FolderAlbum.derivedID(forFolderNamed: "Trips".precomposedStringWithCanonicalMapping))
        #expect(a != FolderAlbum.derivedID(forFolderNamed: "Trips", salt: 1))
        #expect(a.count == 36 && a.split(separator: "-").count == 5)
    }
}

@Suite("Folder naming without Foundation's path and trimming calls")
struct FolderNamingFastPathTests {
    @Test func lastComponentMatchesNSString() {
        let paths = [
            "", "a", "a/", "a//", "/a", "a/b.jpg", "a/b/", "/x/y/z.HEIC", "./.", "..", "é/ü.jpg", "a b/ c .jpg",
        ]
        for path in paths {
            #expect(FolderNaming.lastComponent(path) == (path as NSString).lastPathComponent, "\(path)")
        }
        // Only slashes name nothing (Foundation answers "/" or "", depending on the count).
        #expect(FolderNaming.lastComponent("/") == "" && FolderNaming.lastComponent("///") == "")
    }

    @Test func printableASCIINamesAreKeptOrCleanedAsBefore() {
        // Given ASCII names on both sides of every rule the quick check takes over
        let cases: [(String, String)] = [
            ("IMG_0001", "IMG_0001"), (" IMG", "IMG"), ("IMG ", "IMG"), (".IMG", "_IMG"), ("IMG.", "IMG"),
            ("a/b", "a\u{2215}b"), ("a\u{7F}b", "a_b"), ("tab\there", "tab_here"), ("~!@#$%^&*()", "~!@#$%^&*()"),
        ]
        for (raw, expected) in cases {
            #expect(FolderNaming.safeComponent(raw, fallback: "X") == expected, "\(raw)")
        }
        // And a name at the byte limit is kept, one byte over is cut
        let long = String(repeating: "a", count: 251)
        #expect(FolderNaming.safeComponent(long, fallback: "X", reserving: 4) == long)
        #expect(FolderNaming.safeComponent(long + "b", fallback: "X", reserving: 4) == long)
    }

    @Test func blankStemsGetADatedName() {
        let date = Date(timeIntervalSince1970: 0)
        for original in [" .jpg", "\t.jpg", "\u{2003}.jpg", "...jpg"] {
            #expect(
                FolderNaming.fileName(original: original, format: .jpeg, date: date).hasPrefix("IMG_1970"),
                "\(original)")
        }
        // A line break is not blank: it is kept, made safe.
        #expect(FolderNaming.fileName(original: "\n.jpg", format: .jpeg, date: date) == "_.jpg")
    }
}
