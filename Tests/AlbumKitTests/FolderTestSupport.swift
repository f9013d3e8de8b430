import Foundation
import Testing

@testable import AlbumKitCore
@testable import AlbumKitFolders

/// Temp folders, tiny valid media and folder assertions for the folder-library tests.
enum FolderFixture {
    /// Runs the program `arguments[0]` with the rest as its arguments (`mount`, `umount`) and
    /// returns its exit status (-1 when it cannot start).
    static func run(_ arguments: String...) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Runs `body` with a fresh, empty folder (`…/Pictures`) inside a fresh temp directory, removed
    /// afterwards. The parent is passed too, to check that nothing is written outside the root.
    static func withRoot<T>(_ body: (_ root: URL, _ parent: URL) async throws -> T) async throws -> T {
        let parent = FileManager.default.temporaryDirectory
            .appendingPathComponent("albumkit-folders-\(UUID().uuidString)", isDirectory: true)
        let root = parent.appendingPathComponent("Pictures", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer {
            FaultInjector.removeAll(under: parent.path)
            try? FileManager.default.removeItem(at: parent)
        }
        return try await body(root, parent)
    }

    /// The folder library at `root`, whose Trash is `Trash` next to `root` (never the user's).
    static func library(_ root: URL) throws -> PhotoLibrary {
        PhotoLibrary(backend: FolderBackend(root: root, trash: trash(root)))
    }

    /// The home Trash the fixture's libraries use.
    static func trash(_ root: URL) -> FolderTrash {
        FolderTrash(homeTrash: root.deletingLastPathComponent().appendingPathComponent("Trash").path)
    }

    /// A valid 1×1 baseline JPEG (ImageMagick output), made distinct by a comment segment holding `tag`.
    static func jpeg(_ tag: String = "") -> Data {
        var bytes: [UInt8] = [0xFF, 0xD8]
        if !tag.isEmpty {
            let text = Array(tag.utf8)
            bytes += [0xFF, 0xFE, UInt8((text.count + 2) >> 8), UInt8((text.count + 2) & 0xFF)] + text
        }
        bytes += jpegBody
        return Data(bytes)
    }

    /// A valid 1×1 RGB PNG of the given colour (stored deflate block, real CRCs and Adler-32).
    static func png(red: UInt8 = 0, green: UInt8 = 128, blue: UInt8 = 255) -> Data {
        func be32(_ v: UInt32) -> [UInt8] {
            [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return be32(UInt32(data.count)) + body + be32(crc32(body))
        }
        let raw: [UInt8] = [0, red, green, blue]  // filter byte + one pixel
        var adlerA: UInt32 = 1
        var adlerB: UInt32 = 0
        for byte in raw {
            adlerA = (adlerA + UInt32(byte)) % 65521
            adlerB = (adlerB + adlerA) % 65521
        }
        let zlib: [UInt8] =
            [0x78, 0x01, 0x01, UInt8(raw.count), 0x00, ~UInt8(raw.count), 0xFF] + raw + be32(adlerB << 16 | adlerA)
        let header = be32(1) + be32(1) + [8, 2, 0, 0, 0]
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        return Data(signature + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", []))
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// The `AlbumError` code `body` throws; `nil` when it succeeds or throws something else.
    static func errorCode<T>(_ body: () async throws -> T) async -> AlbumError.Code? {
        do {
            _ = try await body()
            return nil
        } catch {
            return (error as? AlbumError)?.code
        }
    }

    /// Writes `data` to `name` in `directory` and returns its URL.
    @discardableResult
    static func write(_ data: Data, named name: String, in directory: URL) throws -> URL {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    /// The visible entries of `directory`, sorted.
    static func visible(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { !$0.hasPrefix(".") }
            .sorted()
    }

    /// Every entry of `directory` (hidden ones included), sorted.
    static func all(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    /// Checks the folder-library invariant: the folder holds only complete photo/video files (each
    /// byte-identical to one of `sources` when given) and, hidden, at most AlbumKit's marker.
    static func expectOnlyCompleteMedia(
        in folder: URL, sources: [Data] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for name in all(in: folder) {
            if name == FolderAlbumMarker.fileName { continue }
            #expect(!name.hasPrefix("."), "hidden leftover \(name) in \(folder.path)", sourceLocation: sourceLocation)
            let url = folder.appendingPathComponent(name)
            let data = (try? Data(contentsOf: url)) ?? Data()
            #expect(
                (try? MediaInspector().inspect(BufferByteSource(bytes: Array(data)))) != nil,
                "\(name) is not complete media", sourceLocation: sourceLocation)
            if !sources.isEmpty {
                #expect(sources.contains(data), "\(name) is not a complete copy", sourceLocation: sourceLocation)
            }
        }
    }

    private static let jpegBody: [UInt8] = [
        0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
        0xFF, 0xDB, 0x00, 0x43, 0x00, 0x10, 0x0B, 0x0C, 0x0E, 0x0C, 0x0A, 0x10, 0x0E, 0x0D, 0x0E, 0x12, 0x11, 0x10,
        0x13, 0x18, 0x28, 0x1A, 0x18, 0x16, 0x16, 0x18, 0x31, 0x23, 0x25, 0x1D, 0x28, 0x3A, 0x33, 0x3D, 0x3C, 0x39,
        0x33, 0x38, 0x37, 0x40, 0x48, 0x5C, 0x4E, 0x40, 0x44, 0x57, 0x45, 0x37, 0x38, 0x50, 0x6D, 0x51, 0x57, 0x5F,
        0x62, 0x67, 0x68, 0x67, 0x3E, 0x4D, 0x71, 0x79, 0x70, 0x64, 0x78, 0x5C, 0x65, 0x67, 0x63, 0xFF, 0xDB, 0x00,
        0x43, 0x01, 0x11, 0x12, 0x12, 0x18, 0x15, 0x18, 0x2F, 0x1A, 0x1A, 0x2F, 0x63, 0x42, 0x38, 0x42, 0x63, 0x63,
        0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63,
        0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63,
        0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00,
        0x01, 0x00, 0x01, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, 0xFF, 0xC4, 0x00, 0x15, 0x00,
        0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05,
        0xFF, 0xC4, 0x00, 0x14, 0x10, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0xFF, 0xC4, 0x00, 0x15, 0x01, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x06, 0xFF, 0xC4, 0x00, 0x14, 0x11, 0x01, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xDA, 0x00, 0x0C, 0x03,
        0x01, 0x00, 0x02, 0x11, 0x03, 0x11, 0x00, 0x3F, 0x00, 0x8A, 0x00, 0xB5, 0xE3, 0xFF, 0xD9,
    ]
}
