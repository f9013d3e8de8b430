import Foundation

/// "Did you mean …?" for mistyped commands, options and album titles.
enum Suggestion {
    /// The candidate closest to `word`: equal ignoring case and accents, a prefix, or within a small
    /// edit distance (about one typo per four characters). `nil` when nothing is close.
    static func closest(to word: String, among candidates: [String]) -> String? {
        // Folding goes through Foundation's NSString, slow on its first use: not when nothing is near.
        guard !candidates.isEmpty else { return nil }
        let key = normalized(word)
        guard !key.isEmpty else { return nil }
        if let same = candidates.first(where: { normalized($0) == key }) { return same }
        var best: (candidate: String, distance: Int, edits: Int)?
        for candidate in candidates {
            let other = normalized(candidate)
            let edits = editDistance(key, other)
            var distance = edits
            // A prefix of at least three characters ("sav", "Touch Code") is as good as one typo.
            if min(key.count, other.count) >= 3, other.starts(with: key) || key.starts(with: other) {
                distance = min(distance, 1)
            }
            // One or two letters are too short for a typo to tell: "A" is not a misspelt "B".
            let shorter = min(key.count, other.count)
            let allowed = shorter < 3 ? 0 : max(1, shorter / 4)
            // Ties go to the fewer edits: "delete-assets" is "delete-asset", not "delete".
            if distance <= allowed, (distance, edits) < (best?.distance ?? .max, best?.edits ?? .max) {
                best = (candidate, distance, edits)
            }
        }
        return best?.candidate
    }

    private static func normalized(_ text: String) -> [Character] {
        Array(
            text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
                .trimmingCharacters(in: .whitespaces))
    }

    /// Levenshtein distance, with a swap of two neighbours counting as one edit.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            previous2 = previous
            previous = current
        }
        return previous[b.count]
    }
}
