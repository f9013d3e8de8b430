import Foundation
@testable import AlbumKitMedia

/// The committed corpus and exiftool's expectations for it (see Scripts/media/make-corpus.sh).
enum Corpus {
    /// The Fixtures folder in the test bundle.
    static let root: URL = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!

    /// What exiftool read, in AlbumKit's keys; broken files have `error`.
    struct Expectation: Decodable, Sendable {
        var error: String?
        var format: String?
        var kind: String?
        var width: Int?
        var height: Int?
        var orientation: Int?
        var captureDate: String?
        var latitude: Double?
        var longitude: Double?
        var altitude: Double?
        var make: String?
        var model: String?
        var duration: Double?
    }

    static let expectations: [String: Expectation] = {
        let data = try! Data(contentsOf: root.appendingPathComponent("expectations.json"))
        return try! JSONDecoder().decode([String: Expectation].self, from: data)
    }()

    /// Relative names (`corpus/jpeg-plain.jpg`) of the valid files.
    static let valid: [String] = expectations.filter { $0.value.error == nil }.map(\.key).sorted()
    /// Relative names of the broken variants.
    static let broken: [String] = expectations.filter { $0.value.error != nil }.map(\.key).sorted()

    static func bytes(_ name: String) -> [UInt8] {
        Array(try! Data(contentsOf: root.appendingPathComponent(name)))
    }
}

/// A file read with `pread`-style positioned reads (what the core passes to the inspector).
final class FileByteSource: ByteSource {
    let handle: FileHandle
    let size: UInt64

    init(url: URL) throws {
        handle = try FileHandle(forReadingFrom: url)
        size = try handle.seekToEnd()
    }

    deinit { try? handle.close() }

    func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        try handle.seek(toOffset: offset)
        return Array(try handle.read(upToCount: count) ?? Data())
    }
}

/// A deterministic generator (SplitMix64), so every run mutates the same way.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A source that throws on every read.
struct FailingByteSource: ByteSource {
    struct Failure: Error {}
    var size: UInt64 { 1000 }
    func read(at offset: UInt64, count: Int) throws -> [UInt8] { throw Failure() }
}

func inspect(_ bytes: [UInt8]) -> Result<MediaMetadata, MediaInspectionError> {
    Result { () throws(MediaInspectionError) in try MediaInspector().inspect(BufferByteSource(bytes: bytes)) }
}
