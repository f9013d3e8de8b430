import AlbumKitConformance
import AlbumTestSupport
import AlbumKitCatalog
import AlbumKitCore
import AlbumKitFolders
import Foundation
import Testing

#if !canImport(ObjectiveC)
    import PhotoKitSimulator
    @testable import AlbumKitPhotoKit
#endif

/// Test photos made with ImageMagick, their EXIF thumbnails written by exiftool.
enum ThumbnailMedia {
    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `tool` (ImageMagick's `convert`, `exiftool`) and fails with its messages; a missing one
    /// skips the test outside CI (``ExternalTool``).
    static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try ExternalTool.require(tool))
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failed(description: "\(tool) \(arguments): \(message)") }
    }

    /// A 400×300 JPEG named `name` in `folder`, with a 160×120 EXIF thumbnail when `thumbnail`;
    /// returns the photo and the thumbnail's bytes (empty without one).
    static func photo(_ name: String, in folder: URL, thumbnail: Bool = true) throws -> (url: URL, thumbnail: Data) {
        let photo = folder.appendingPathComponent(name)
        // A different picture per name: libraries keep one asset per content.
        let colour = ["red-blue", "yellow-green", "white-black", "orange-purple"][abs(name.hashValue) % 4]
        try run("convert", ["-size", "400x300", "gradient:\(colour)", "-comment", name, photo.path])
        guard thumbnail else { return (photo, Data()) }
        let small = folder.appendingPathComponent("thumb-\(name)")
        try run("convert", ["-size", "160x120", "xc:green", small.path])
        try run("exiftool", ["-q", "-overwrite_original", "-ThumbnailImage<=" + small.path, photo.path])
        return (photo, try Data(contentsOf: small))
    }

    /// The pixel size of a JPEG, read from its frame header.
    static func size(of jpeg: Data) throws -> (width: Int, height: Int) {
        let metadata = try MediaInspector().inspect(BufferByteSource(bytes: Array(jpeg)))
        #expect(metadata.format == .jpeg)
        return (metadata.width ?? 0, metadata.height ?? 0)
    }
}

/// `PhotoLibrary.thumbnail(forAssetWithID:maxPixelSize:)` on every library kind an app meets
/// (the shared library's are in AlbumKitSharedTests).
@Suite struct ThumbnailTests {
    enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case inMemory, catalog, folders, photoKit
        var testDescription: String { rawValue }
        static var available: [Kind] {
            #if canImport(ObjectiveC)
                [.inMemory, .catalog, .folders]
            #else
                allCases
            #endif
        }
    }

    /// A fresh library of `kind` in a scratch folder, `body` run against it.
    func with(_ kind: Kind, _ body: (PhotoLibrary, URL) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("thumbs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer {
            // Scratch space of this test only.
            try? FileManager.default.removeItem(at: folder)
        }
        let media = folder.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        switch kind {
        case .inMemory: try await body(.inMemory(), media)
        case .catalog: try await body(try .catalog(at: folder.appendingPathComponent("Photos.albumlibrary")), media)
        case .folders:
            _ = Fixture.thumbnailCacheHome  // the folder library's thumbnails go to a cache of this process
            let root = folder.appendingPathComponent("Pictures")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try await body(try .folders(at: root), media)
        case .photoKit:
            #if !canImport(ObjectiveC)
                let harness = PhotoKitHarness()
                try await harness.run { try await body(harness.library, media) }
            #endif
        }
    }

    /// The code of the `AlbumError` that `body` threw; `nil` when it threw none (or another error).
    static func code(_ body: () async throws -> AssetThumbnail?) async -> AlbumError.Code? {
        do {
            _ = try await body()
            return nil
        } catch {
            return (error as? AlbumError)?.code
        }
    }

    @Test(arguments: Kind.available)
    func aPhotoWithAnEXIFThumbnailGivesOne(kind: Kind) async throws {
        try ExternalTool.requireLibvips()
        try await with(kind) { library, media in
            let (photo, stored) = try ThumbnailMedia.photo("IMG_0001.JPG", in: media)
            let saved = try await library.album(titled: "Trips").save(.file(photo))
            let thumbnail = try #require(try await library.thumbnail(forAssetWithID: saved.assetID, maxPixelSize: 100))
            #expect(thumbnail.format == .jpeg)
            let decoded = try ThumbnailMedia.size(of: thumbnail.data)
            #expect(decoded.width == thumbnail.pixelWidth && decoded.height == thumbnail.pixelHeight)
            if kind == .photoKit {
                // Photos renders the photo itself, fitted into 100 × 100.
                #expect(!thumbnail.isEmbedded)
                #expect(thumbnail.pixelWidth == 100 && thumbnail.pixelHeight == 75)
            } else {
                // Made by libvips from the thumbnail exiftool stored (160 × 120, big enough), fitted.
                #expect(!thumbnail.isEmbedded)
                #expect(thumbnail.data != stored)
                #expect(thumbnail.pixelWidth == 100 && thumbnail.pixelHeight == 75)
            }
        }
    }

    @Test(arguments: Kind.available)
    func aFileWithoutAStoredThumbnailIsRenderedToo(kind: Kind) async throws {
        try ExternalTool.requireLibvips()
        try await with(kind) { library, media in
            let (photo, _) = try ThumbnailMedia.photo("IMG_0002.JPG", in: media, thumbnail: false)
            let png = media.appendingPathComponent("Screenshot.png")
            try ThumbnailMedia.run("convert", ["-size", "64x48", "gradient:blue-white", png.path])
            let results = await library.album(titled: "Trips").save([.file(photo), .file(png)])
            for result in results {
                let id = try result.get().assetID
                let rendered = try #require(try await library.thumbnail(forAssetWithID: id, maxPixelSize: 32))
                #expect(max(rendered.pixelWidth, rendered.pixelHeight) == 32)
                let decoded = try ThumbnailMedia.size(of: rendered.data)
                #expect(decoded.width == rendered.pixelWidth && decoded.height == rendered.pixelHeight)
            }
        }
    }

    @Test(arguments: Kind.available)
    func anUnknownAssetOrABadSizeIsAnError(kind: Kind) async throws {
        try await with(kind) { library, media in
            let (photo, _) = try ThumbnailMedia.photo("IMG_0003.JPG", in: media)
            let saved = try await library.album(titled: "Trips").save(.file(photo))
            let unknown = kind == .folders ? "\(saved.albumID!)/IMG_9999.JPG" : "no-such-asset"
            #expect(await Self.code { try await library.thumbnail(forAssetWithID: unknown) } == .assetNotFound)
            #expect(
                await Self.code { try await library.thumbnail(forAssetWithID: saved.assetID, maxPixelSize: 0) }
                    == .invalidArgument)
        }
    }

    #if !canImport(ObjectiveC)
        @Test func photosWithoutReadAccessRefuses() async throws {
            let harness = PhotoKitHarness()
            try await harness.run {
                let saved = try await harness.library.save(.file(PhotoKitHarness.jpeg))
                harness.simulation.setAuthorizationStatus(.denied, for: .readWrite)
                // Without read access Photos fetches nothing: the asset is not there for the app.
                #expect(
                    await Self.code { try await harness.library.thumbnail(forAssetWithID: saved.assetID) }
                        == .assetNotFound)
            }
        }
    #endif
}
