import AlbumKitConformance
import AlbumKitFoldersTestSupport
import Foundation
import Testing

@testable import AlbumKitCore
@testable import AlbumKitFolders

/// `exportAlbum`: originals with their names, collisions numbered, capture dates as modification
/// times, nothing overwritten, a missing original reported while the rest is exported.
@Suite struct ExportTests {
    static let corpus = Fixture.packageRoot.appendingPathComponent("Tests/AlbumKitMediaTests/Fixtures/corpus")

    @Test func originalsWithNamesDatesAndNumberedCollisions() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let library = try PhotoLibrary.catalog(at: dir.appendingPathComponent("Test.albumlibrary"))
            let trips = library.album(titled: "Trips")
            // Given two photos both named IMG.jpg (one taken 2024-05-01 10:20:30 +02:00) and a video
            let dated = try Data(contentsOf: Self.corpus.appendingPathComponent("jpeg-orientation-1.jpg"))
            let other = Fixture.tinyJPEG("other")
            try await trips.save(.data(dated, filename: "IMG.jpg"))
            try await trips.save(.data(other, filename: "IMG.jpg"))
            try await trips.save(.file(Self.corpus.appendingPathComponent("webm-vp9.webm")))
            // And an export folder that already holds a file named IMG.jpg
            let out = dir.appendingPathComponent("Export")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: false)
            let mine = Fixture.write(Data("the user's own file".utf8), named: "IMG.jpg", in: out)
            // When the album is exported
            let report = try await library.exportAlbum(titled: "Trips", to: out)
            // Then every original is there, numbered around the user's file, which is untouched
            #expect(report.failures.isEmpty)
            #expect(report.exported.map(\.name) == ["IMG 2.jpg", "IMG 3.jpg", "webm-vp9.webm"])
            #expect(try Data(contentsOf: mine) == Data("the user's own file".utf8))
            #expect(try Data(contentsOf: out.appendingPathComponent("IMG 2.jpg")) == dated)
            #expect(try Data(contentsOf: out.appendingPathComponent("IMG 3.jpg")) == other)
            #expect(Fixture.files(under: out) == ["IMG 2.jpg", "IMG 3.jpg", "IMG.jpg", "webm-vp9.webm"])
            // And the dated ones carry their capture date
            let attributes = try FileManager.default.attributesOfItem(
                atPath: out.appendingPathComponent("IMG 2.jpg").path)
            let expected = ISO8601DateFormatter().date(from: "2024-05-01T10:20:30+02:00")
            #expect((attributes[.modificationDate] as? Date) == expected)
            #expect(report.exported[0].modificationDate == expected)
            let webm = try FileManager.default.attributesOfItem(
                atPath: out.appendingPathComponent("webm-vp9.webm").path)
            #expect((webm[.modificationDate] as? Date) == ISO8601DateFormatter().date(from: "2024-05-01T10:20:30Z"))
            #expect(report.exported[1].modificationDate == nil)
        }
    }

    @Test(arguments: ["catalog", "folders"])
    func exportingAgainIsASync(_ kind: String) async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let library =
                kind == "catalog"
                ? try PhotoLibrary.catalog(at: dir.appendingPathComponent("Test.albumlibrary"))
                : try FolderFixture.library(
                    try FileManager.default.url(
                        for: .itemReplacementDirectory, in: .userDomainMask, appropriateFor: dir, create: true))
            // Given an album of three photos, two of them named IMG.jpg, exported once
            try await library.album(titled: "A").save(.data(Fixture.tinyJPEG("x"), filename: "x.jpg"))
            try await library.album(titled: "A").save(.data(Fixture.tinyJPEG("one"), filename: "IMG.jpg"))
            try await library.album(titled: "A").save(.data(Fixture.tinyJPEG("two"), filename: "IMG.jpg"))
            let out = dir.appendingPathComponent("Out")
            let first = try await library.exportAlbum(titled: "A", to: out)
            #expect(first.exported.count == 3 && first.alreadyThere.isEmpty)
            let names = Fixture.files(under: out)
            // When it is exported again
            let second = try await library.exportAlbum(titled: "A", to: out)
            // Then nothing is written: every asset is found under the name it got the first time
            #expect(second.exported.isEmpty)
            #expect(second.alreadyThere.map(\.name).sorted() == first.exported.map(\.name).sorted())
            #expect(Fixture.files(under: out) == names)
            // When one exported copy is changed (same size, other bytes) and the album exported again
            let changed = out.appendingPathComponent("x.jpg")
            var bytes = try Data(contentsOf: changed)
            bytes[bytes.count - 3] ^= 0xFF
            try bytes.write(to: changed)
            let third = try await library.exportAlbum(titled: "A", to: out)
            // Then that asset is written again beside it, the changed file untouched
            #expect(third.exported.map(\.name) == ["x 2.jpg"])
            #expect(third.alreadyThere.count == 2)
            #expect(try Data(contentsOf: changed) == bytes)
            #expect(try Data(contentsOf: out.appendingPathComponent("x 2.jpg")) == Fixture.tinyJPEG("x"))
        }
    }

    @Test func missingOriginalIsReportedAndTheRestExported() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let library = try PhotoLibrary.catalog(at: dir.appendingPathComponent("Test.albumlibrary"))
            let album = library.album(titled: "A")
            let lost = try await album.save(.data(Fixture.tinyJPEG("lost"), filename: "lost.jpg"))
            try await album.save(.data(Fixture.tinyJPEG("kept"), filename: "kept.jpg"))
            let file = try #require(
                try await library.assets(inAlbumTitled: "A").first { $0.id == lost.assetID }?.fileURL)
            try FileManager.default.removeItem(at: file)
            let report = try await library.exportAlbum(titled: "A", to: dir.appendingPathComponent("Out"))
            #expect(report.exported.map(\.name) == ["kept.jpg"])
            #expect(report.failures.map(\.assetID) == [lost.assetID])
            #expect(report.failures.first?.code == .fileNotFound)
        }
    }

    @Test func folderLibraryAlbumsExportToo() async throws {
        try await FolderFixture.withRoot { root, parent in
            let library = try PhotoLibrary.folders(at: root)
            try await library.album(titled: "Trips").save(.data(Fixture.tinyJPEG("a"), filename: "a.jpg"))
            try await library.album(titled: "Trips").save(.file(Self.corpus.appendingPathComponent("ts-mpeg2.ts")))
            let out = parent.appendingPathComponent("Out")
            let report = try await library.exportAlbum(titled: "Trips", to: out)
            #expect(Set(report.exported.map(\.name)) == ["a.jpg", "ts-mpeg2.ts"])
            #expect(try Data(contentsOf: out.appendingPathComponent("a.jpg")) == Fixture.tinyJPEG("a"))
        }
    }

    @Test func aFileInPlaceOfTheFolderIsRefused() async throws {
        try await Fixture.withTemporaryDirectory { dir in
            let library = try PhotoLibrary.catalog(at: dir.appendingPathComponent("Test.albumlibrary"))
            try await library.album(titled: "A").save(.data(Fixture.tinyJPEG(), filename: "a.jpg"))
            let file = Fixture.write(Data("x".utf8), named: "Out", in: dir)
            await expectCode(.invalidArgument) { try await library.exportAlbum(titled: "A", to: file) }
            // A file on the way to the folder is the target's problem, not a library gone missing.
            await expectCode(.invalidArgument) {
                try await library.exportAlbum(titled: "A", to: file.appendingPathComponent("sub"))
            }
            let nested = try await library.exportAlbum(titled: "A", to: dir.appendingPathComponent("new/nested/folder"))
            #expect(nested.exported.map(\.name) == ["a.jpg"])
            await expectCode(.albumNotFound) { try await library.exportAlbum(titled: "B", to: dir) }
        }
    }
}
