import AlbumKit
import Foundation

extension SaveCommand {

    /// Gives each photo its companions among the inputs (``CompanionGrouping``: its sidecars, the raw
    /// of a RAW+JPEG pair taken at the same moment), folder by folder; they are no inputs of their
    /// own any more. A sidecar without its photo becomes an early `.orphan`; `early`'s positions
    /// follow the inputs that stay.
    static func gathered(
        _ inputs: [Input], early: [(position: Int, input: Input, outcome: Early)], pairingRaws: Bool
    ) async -> ([Input], [(position: Int, input: Input, outcome: Early)]) {
        var byFolder: [[UInt8]: [Int]] = [:]
        for index in inputs.indices {
            let bytes = inputs[index].bytes.bytes
            let folder = bytes.lastIndex(of: UInt8(ascii: "/")).map { Array(bytes[...$0]) } ?? []
            byFolder[folder, default: []].append(index)
        }
        func name(_ index: Int) -> String? {
            // Names that are not UTF-8 are left as they are: a photo of its own, never a companion.
            String(bytes: inputs[index].bytes.lastComponent.bytes, encoding: .utf8)
        }
        var companionsOf: [Int: [(role: MediaCompanion.Role, index: Int)]] = [:]
        var orphans: [Int] = []
        var claimed: [Int: [String]] = [:]  // a GoPro copy two clips could claim → those clips
        for (_, indices) in byFolder
        where indices.count > 1 || indices.contains(where: { name($0).map(CompanionGrouping.isSidecar) ?? false }) {
            var byName: [String: Int] = [:]
            for index in indices { if let name = name(index) { byName[name] = index } }
            let grouping = CompanionGrouping(Array(byName.keys).sorted(), pairingRaws: pairingRaws)
            for group in grouping.groups where !group.companions.isEmpty {
                companionsOf[byName[group.primary]!] = group.companions.map { ($0.role, byName[$0.name]!) }
            }
            orphans += grouping.orphans.map { byName[$0]! }
            for (copy, clips) in grouping.unclaimedCopies { claimed[byName[copy]!] = clips }
        }
        // A raw and its JPEG whose capture times differ are two photos, not a pair.
        let pairs = companionsOf.flatMap { primary, companions in
            companions.filter { $0.role == .raw }.map { (primary, $0.index) }
        }
        if !pairs.isEmpty {
            let unpaired = Locked(Set<Int>())
            await Blocking.forEach(pairs.count) { at in
                let (photo, raw) = pairs[at]
                // A file whose capture time cannot be read is paired by its name alone.
                guard let first = try? MediaReader(inputs[photo].media).metadata.captureDate,
                    let second = try? MediaReader(inputs[raw].media).metadata.captureDate,
                    let a = AssetInfo.date(fromCaptureDate: first), let b = AssetInfo.date(fromCaptureDate: second),
                    abs(a.timeIntervalSince(b)) > 2
                else { return }
                unpaired.withLock { _ = $0.insert(raw) }
            }
            let separate = unpaired.withLock { $0 }
            for (primary, companions) in companionsOf {
                companionsOf[primary] = companions.filter { !separate.contains($0.index) }
            }
        }
        var absorbed = Set(orphans)
        for companions in companionsOf.values { absorbed.formUnion(companions.map(\.index)) }
        guard !absorbed.isEmpty || !claimed.isEmpty else { return (inputs, early) }
        var kept: [Input] = []
        var newPosition: [Int] = []  // old index → how many inputs stay before it
        var lone: [(position: Int, input: Input, outcome: Early)] = []
        for index in inputs.indices {
            newPosition.append(kept.count)
            if orphans.contains(index) { lone.append((kept.count, inputs[index], .orphan)) }
            guard !absorbed.contains(index) else { continue }
            var input = inputs[index]
            input.companions = (companionsOf[index] ?? []).map {
                MediaCompanion(role: $0.role, path: inputs[$0.index].bytes)
            }
            input.clipsClaiming = claimed[index] ?? []
            kept.append(input)
        }
        newPosition.append(kept.count)
        let moved = early.map { (position: newPosition[$0.position], input: $0.input, outcome: $0.outcome) }
        // In the order they were found: a stable merge by position.
        let merged =
            (moved.enumerated().map { ($0.element, 0, $0.offset) }
            + lone.enumerated().map { ($0.element, 1, $0.offset) })
            .sorted { ($0.0.position, $0.1, $0.2) < ($1.0.position, $1.1, $1.2) }
            .map(\.0)
        return (kept, merged)
    }
}
