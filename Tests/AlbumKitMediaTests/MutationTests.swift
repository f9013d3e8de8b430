import Testing
@testable import AlbumKitMedia

/// Thousands of deterministic mutations of the corpus: never a crash, never a hang, always
/// either metadata or a clear error.
@Suite struct MutationTests {
    static let mutationsPerFile = 160

    @Test(.timeLimit(.minutes(5)), arguments: Corpus.valid)
    func mutatedFilesNeverCrash(_ name: String) {
        let original = Corpus.bytes(name)
        var random = SeededGenerator(seed: UInt64(truncatingIfNeeded: name.utf8.reduce(5381) { $0 &* 33 &+ Int($1) }))
        var outcomes = (metadata: 0, corrupt: 0, notMedia: 0)
        for _ in 0..<Self.mutationsPerFile {
            let mutated = Self.mutate(original, using: &random)
            switch inspect(mutated) {
            case .success: outcomes.metadata += 1
            case .failure(let error):
                #expect(error.kind != .unreadable)
                #expect(!error.reason.isEmpty)
                if error.kind == .corrupt { outcomes.corrupt += 1 } else { outcomes.notMedia += 1 }
            }
        }
        #expect(outcomes.metadata + outcomes.corrupt + outcomes.notMedia == Self.mutationsPerFile)
    }

    /// One to four of: byte flips, a cut, a huge length written over a field, a zeroed run, a duplicated run.
    static func mutate(_ bytes: [UInt8], using random: inout SeededGenerator) -> [UInt8] {
        var data = bytes
        for _ in 0..<Int.random(in: 1...4, using: &random) where !data.isEmpty {
            let at = Int.random(in: 0..<data.count, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0:
                data[at] ^= UInt8.random(in: 1...255, using: &random)
            case 1:
                data.removeSubrange(Int.random(in: 0..<data.count, using: &random)...)
            case 2:
                let huge: [UInt8] = [
                    [0xFF, 0xFF, 0xFF, 0xFF], [0x7F, 0xFF, 0xFF, 0xF0], [0x00, 0x00, 0x00, 0x01],
                    [0x00, 0x00, 0x00, 0x00], [0xFF, 0xFF, 0xFF, 0xF8],
                ][Int.random(in: 0..<5, using: &random)]
                for k in 0..<4 where at + k < data.count { data[at + k] = huge[k] }
            case 3:
                let end = min(data.count, at + Int.random(in: 1...64, using: &random))
                for k in at..<end { data[k] = 0 }
            case 4:
                let end = min(data.count, at + Int.random(in: 1...256, using: &random))
                data.insert(contentsOf: data[at..<end], at: Int.random(in: 0...data.count, using: &random))
            default:
                // Keep the header, randomize a byte inside the first 64 (box and chunk headers live there).
                data[min(at, min(63, data.count - 1))] = UInt8.random(in: 0...255, using: &random)
            }
        }
        return data
    }
}
