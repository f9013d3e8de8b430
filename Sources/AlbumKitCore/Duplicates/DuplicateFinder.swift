/// Sorts assets into the three classes of duplicates people ask about, kept apart: the same file,
/// the same picture, similar pictures.
///
/// 1. Same file: assets with one SHA-256. They count as one picture below.
/// 2. Same picture: pHash at most ``samePictureRadius`` bits apart and dHash at most
///    ``samePictureDifferenceRadius``, one aspect ratio (within 3 %), and no evidence that they are
///    different shots (``ShotEvidence``). Pairs are joined closest first, and two groups are never
///    joined while any member of one is a different shot from any member of the other: a copy that
///    lost its metadata and sits between two burst frames joins one of them, never both.
/// 3. Similar: pictures (groups of step 2 or single assets) whose pHashes are at most
///    ``similarRadius`` bits apart, joined transitively. Listed only, nothing to remove.
///
/// ```swift
/// let groups = await DuplicateFinder().groups(of: candidates)
/// ```
package struct DuplicateFinder: Sendable {
    /// pHash bits that may differ between copies of one picture (copies measured: at most 2).
    package var samePictureRadius = 6
    /// dHash bits that may differ between copies of one picture (copies measured: at most 7).
    package var samePictureDifferenceRadius = 10
    /// pHash bits that may differ between similar pictures (neighbouring burst frames measured: 0 to
    /// 10; unrelated pictures: 10 and more). At most 7, so the search stays fast over a million
    /// pictures (``NearDuplicateIndex``).
    package var similarRadius = 7

    /// A finder with the documented thresholds.
    package init() {}

    /// The groups of `candidates`: same-file groups, then same-picture, then similar, each in the
    /// order of its best member's name.
    package func groups(of candidates: [DuplicateCandidate]) async -> [DuplicateGroup] {
        // 1. Same file.
        var units: [[DuplicateCandidate]] = []
        var unitOfSHA: [String: Int] = [:]
        for candidate in candidates {
            if let sha = candidate.sha256, let unit = unitOfSHA[sha] {
                units[unit].append(candidate)
            } else {
                if let sha = candidate.sha256 { unitOfSHA[sha] = units.count }
                units.append([candidate])
            }
        }
        units = units.map { $0.sorted(by: Self.isBetter) }
        var groups = units.filter { $0.count > 1 }.map { DuplicateGroup(kind: .sameFile, members: $0) }

        // 2. Same picture, over the units that have hashes.
        let hashed = units.indices.filter { units[$0][0].hash != nil }
        let index = NearDuplicateIndex(hashed.map { units[$0][0].hash!.perceptual })
        let radius = max(samePictureRadius, similarRadius)
        var close: [(first: Int, second: Int, distance: Int)] = []
        for (i, j) in await index.pairs(within: radius) {
            let a = units[hashed[i]][0]
            let b = units[hashed[j]][0]
            let distance = a.hash!.distance(to: b.hash!)
            close.append((hashed[i], hashed[j], distance.perceptual * 2 + distance.difference))
        }
        close.sort { ($0.distance, $0.first, $0.second) < ($1.distance, $1.first, $1.second) }
        var cluster = Array(units.indices)
        var clusterMembers = units.indices.map { [$0] }
        func root(_ unit: Int) -> Int {
            var unit = unit
            while cluster[unit] != unit { unit = cluster[unit] }
            return unit
        }
        for pair in close {
            let a = units[pair.first][0]
            let b = units[pair.second][0]
            guard isSamePicture(a, b) else { continue }
            let rootA = root(pair.first)
            let rootB = root(pair.second)
            guard rootA != rootB else { continue }
            let apart = clusterMembers[rootA].contains { x in
                clusterMembers[rootB].contains { y in
                    units[x].contains { p in units[y].contains { q in ShotEvidence.differentShots(p, q) } }
                }
            }
            guard !apart else { continue }
            cluster[rootB] = rootA
            clusterMembers[rootA] += clusterMembers[rootB]
            clusterMembers[rootB] = []
        }
        for unit in units.indices where root(unit) == unit && clusterMembers[unit].count > 1 {
            let members = clusterMembers[unit].flatMap { units[$0] }.sorted(by: Self.isBetter)
            groups.append(DuplicateGroup(kind: .samePicture, members: members))
        }

        // 3. Similar: pictures joined transitively by close pHashes.
        var picture = units.indices.map { root($0) }
        func pictureRoot(_ unit: Int) -> Int {
            var unit = unit
            while picture[unit] != unit { unit = picture[unit] }
            return unit
        }
        for pair in close {
            let a = units[pair.first][0]
            let b = units[pair.second][0]
            guard a.hash!.distance(to: b.hash!).perceptual <= similarRadius else { continue }
            let rootA = pictureRoot(root(pair.first))
            let rootB = pictureRoot(root(pair.second))
            if rootA != rootB { picture[rootB] = rootA }
        }
        var similar: [Int: [Int]] = [:]
        for unit in units.indices where root(unit) == unit {
            similar[pictureRoot(unit), default: []].append(unit)
        }
        for pictures in similar.values where pictures.count > 1 {
            // Each picture shown by its best copy.
            let members = pictures.map { clusterMembers[$0].flatMap { units[$0] }.sorted(by: Self.isBetter)[0] }
                .sorted { ($0.capturedAt ?? $0.addedAt, $0.name) < ($1.capturedAt ?? $1.addedAt, $1.name) }
            let isBurst = zip(members, members.dropFirst()).allSatisfy { ShotEvidence.burstNeighbours($0, $1) }
            groups.append(DuplicateGroup(kind: .similar, members: members, isBurst: isBurst))
        }
        let order = DuplicateGroup.Kind.allCases
        return groups.sorted {
            (order.firstIndex(of: $0.kind)!, $0.keep.name, $0.keep.id)
                < (order.firstIndex(of: $1.kind)!, $1.keep.name, $1.keep.id)
        }
    }

    /// Whether `a` and `b` are copies of one picture by their pixels and shape (the shot evidence is
    /// checked over whole groups).
    package func isSamePicture(_ a: DuplicateCandidate, _ b: DuplicateCandidate) -> Bool {
        guard let first = a.hash, let second = b.hash else { return false }
        let distance = first.distance(to: second)
        guard distance.perceptual <= samePictureRadius, distance.difference <= samePictureDifferenceRadius else {
            return false
        }
        if let ratioA = a.aspectRatio, let ratioB = b.aspectRatio, abs(ratioA / ratioB - 1) > 0.03 { return false }
        return true
    }

    /// Whether `a` is the better copy to keep: more pixels, then the camera's metadata kept, then
    /// more bytes (a copy recompressed or converted to another format is smaller than the original it
    /// was made from), then added earlier, then by identifier.
    package static func isBetter(_ a: DuplicateCandidate, than b: DuplicateCandidate) -> Bool {
        if a.pixelCount != b.pixelCount { return a.pixelCount > b.pixelCount }
        let cameraA = a.camera != nil || a.capturedAt != nil
        let cameraB = b.camera != nil || b.capturedAt != nil
        if cameraA != cameraB { return cameraA }
        if (a.byteSize ?? 0) != (b.byteSize ?? 0) { return (a.byteSize ?? 0) > (b.byteSize ?? 0) }
        if a.addedAt != b.addedAt { return a.addedAt < b.addedAt }
        return a.id < b.id
    }
}
