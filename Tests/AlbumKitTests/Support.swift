import Foundation
import Testing

@testable import AlbumKitCore

/// Per-test temporary directories and the committed example media.
enum Fixture {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let examples = packageRoot.appendingPathComponent("Examples")
    static let jpeg = examples.appendingPathComponent("harbour.jpg")
    static let png = examples.appendingPathComponent("garden.png")
    static let heic = examples.appendingPathComponent("sky.heic")
    static let video = examples.appendingPathComponent("clip.mp4")
    static var jpegBytes: Data { try! Data(contentsOf: jpeg) }

    /// A valid JPEG whose bytes differ for every `tag` (a comment segment after the start marker).
    static func uniqueJPEG(_ tag: String) -> Data {
        let bytes = jpegBytes
        let comment = Array(tag.utf8)
        let length = comment.count + 2
        return bytes.prefix(2) + Data([0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + comment)
            + bytes.dropFirst(2)
    }

    /// A fresh empty directory, removed when `body` returns.
    static func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async rethrows -> T {
        let url = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("albumkit-test-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer {
            FaultInjector.removeAll(under: url.path)
            try? FileManager.default.removeItem(at: url)
        }
        let result = try await body(url)
        // A save's index commit may still be running after it returned.
        await Blocking.acknowledgedWorkFinished()
        return result
    }

    /// Writes `contents` to `name` in `directory`.
    @discardableResult
    static func write(_ contents: Data, named name: String, in directory: URL) -> URL {
        let url = directory.appendingPathComponent(name)
        try! contents.write(to: url)
        return url
    }

    /// Every file under `directory` (relative paths), hidden ones included.
    static func files(under directory: URL) -> [String] {
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
}

extension Result {
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
    var value: Success? { try? get() }
}
