import AlbumKitCore
import Foundation

/// The media and folders every library test uses: the committed example files, photos made unique
/// by a comment, tiny made-up JPEGs and PNGs, and temporary folders removed after the test.
///
/// ```
/// try await Fixture.withTemporaryDirectory { folder in
///     let photo = try Fixture.uniqueJPEGFile("beach", in: folder)   // harbour.jpg, bytes of its own
///     let tiny = Fixture.tinyJPEG("one")                              // a 1×1 JPEG, 300 bytes
/// }
/// ```
public enum Fixture {
    /// The package's root folder (this file is `Tests/AlbumKitConformance/Fixture.swift`).
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// The example media committed in `Examples/`.
    public static let examples = packageRoot.appendingPathComponent("Examples")
    /// A camera photo with EXIF (capture date, position).
    public static let jpeg = examples.appendingPathComponent("harbour.jpg")
    public static let png = examples.appendingPathComponent("garden.png")
    public static let heic = examples.appendingPathComponent("sky.heic")
    /// An MPEG-4 movie with a duration.
    public static let video = examples.appendingPathComponent("clip.mp4")
    /// The bytes of ``jpeg``.
    /// The user cache folder every library of this test process uses (`XDG_CACHE_HOME`, set once in
    /// the process's ``LibraryConfiguration``): a folder library's thumbnails land in a temporary
    /// `thumbnails/` of its own, never in the real user's. Read it before opening a folder library
    /// whose thumbnails a test asks for.
    public static let thumbnailCacheHome: URL = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "albumkit-cache-\(UUID().uuidString)")
        // Made here once per process; a failure shows as the cache being unwritable, which libraries tolerate.
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var configuration = LibraryConfiguration.current
        configuration.environment["XDG_CACHE_HOME"] = folder.path
        LibraryConfiguration.use(configuration)
        return folder
    }()

    public static var jpegBytes: Data {
        // The file is part of the package: a checkout without it cannot run any test.
        try! Data(contentsOf: jpeg)
    }

    /// The example photo (``jpeg``), its bytes made different for every `tag` by a comment segment
    /// after the start marker: a valid JPEG that keeps the photo's EXIF.
    public static func uniqueJPEG(_ tag: String) -> Data {
        let bytes = jpegBytes
        let comment = Array(tag.utf8)
        let length = comment.count + 2
        return bytes.prefix(2) + Data([0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + comment)
            + bytes.dropFirst(2)
    }

    /// ``uniqueJPEG(_:)`` for `label` and a fresh UUID, written to `label.jpg` in `directory`:
    /// bytes no other call returns.
    public static func uniqueJPEGFile(_ label: String, in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("\(label).jpg")
        try uniqueJPEG("\(label)-\(UUID().uuidString)").write(to: url)
        return url
    }

    /// A valid 1×1 baseline JPEG (ImageMagick output) of 300 bytes, made distinct by a comment
    /// segment holding `tag`.
    public static func tinyJPEG(_ tag: String = "") -> Data {
        var bytes: [UInt8] = [0xFF, 0xD8]
        if !tag.isEmpty {
            let text = Array(tag.utf8)
            bytes += [0xFF, 0xFE, UInt8((text.count + 2) >> 8), UInt8((text.count + 2) & 0xFF)] + text
        }
        bytes += tinyJPEGBody
        return Data(bytes)
    }

    /// A valid 1×1 RGB PNG of the given colour (stored deflate block, real CRCs and Adler-32).
    public static func tinyPNG(red: UInt8 = 0, green: UInt8 = 128, blue: UInt8 = 255) -> Data {
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

    /// A fresh empty directory, removed (with any fault injected under it) when `body` returns.
    public static func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async rethrows -> T {
        let url = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("albumkit-test-\(UUID().uuidString)")
        // The system's temporary folder: a machine where it cannot be written runs no test.
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer {
            FaultInjector.removeAll(under: url.path)
            try? FileManager.default.removeItem(at: url)  // best effort: a test's leftovers in /tmp
        }
        let result = try await body(url)
        // A save's index commit may still be running after it returned.
        await Blocking.acknowledgedWorkFinished()
        return result
    }

    /// Writes `contents` to `name` in `directory`.
    @discardableResult
    public static func write(_ contents: Data, named name: String, in directory: URL) -> URL {
        let url = directory.appendingPathComponent(name)
        try! contents.write(to: url)  // the test's own temporary folder
        return url
    }

    /// Every file under `directory` (relative paths), hidden ones included.
    public static func files(under directory: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        var out: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(
                atPath: directory.appendingPathComponent(path).path, isDirectory: &isDirectory)
            if !isDirectory.boolValue { out.append(path) }
        }
        return out.sorted()
    }

    /// The SHA-256 of a file's bytes, read through the platform layer.
    public static func sha256(ofFileAt url: URL) throws -> String {
        let file = try FileSystem.openForReading(url.path).0
        defer { FileSystem.close(file) }
        return try FileSystem.sha256(of: file)
    }

    /// The `AlbumError` code `body` throws, `nil` when it succeeds.
    public static func errorCode<T>(_ body: () async throws -> T) async -> AlbumError.Code? {
        do {
            _ = try await body()
            return nil
        } catch { return (error as? AlbumError)?.code ?? AlbumError.Code(rawValue: "not an AlbumError: \(error)") }
    }

    private static let tinyJPEGBody: [UInt8] = [
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

extension Result {
    /// The error of a failure, `nil` for a success.
    public var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
    /// The value of a success, `nil` for a failure.
    public var value: Success? { try? get() }
}
