import Foundation

/// The rule that keeps frames of a burst (and any two shots) apart: evidence that two assets are
/// different shots, however alike their pixels.
///
/// Copies of one shot (resized, recompressed, EXIF stripped, converted between JPEG and HEIC) keep
/// its capture time, its camera and the number in its name, or lose them; they never change them.
/// So two assets are different shots when both carry one of these and it differs:
///
/// - capture times one second or more apart (a difference of a whole number of quarter hours, up to
///   14 hours, is read as a converter that dropped the time zone, not as another shot);
/// - cameras;
/// - shot numbers: the digits after the same prefix at the start of the name (`IMG_1001` and
///   `IMG_1002`, `DSC01234` and `DSC01235`; `IMG_1001 (small).jpg` is still shot 1001).
///
/// A burst (frames 0.2 s apart, often within one EXIF second) is told apart by its sequential names;
/// frames renamed and taken within one second are told apart only by their pixels.
///
/// ```swift
/// ShotEvidence.differentShots(a, b)   // true for IMG_1001.JPG and IMG_1002.JPG
/// ```
package enum ShotEvidence {
    /// Whether `a` and `b` are proved to be different shots.
    package static func differentShots(_ a: DuplicateCandidate, _ b: DuplicateCandidate) -> Bool {
        if let first = a.capturedAt, let second = b.capturedAt, timesDiffer(first, second) { return true }
        if let first = a.camera, let second = b.camera, first.lowercased() != second.lowercased() { return true }
        if let first = shotNumber(a.name), let second = shotNumber(b.name), first.prefix == second.prefix,
            first.number != second.number
        {
            return true
        }
        return false
    }

    /// Whether `a` and `b` look like neighbouring frames of one burst: one camera (or none known),
    /// taken at most 2 s apart, shot numbers with one prefix at most 20 apart.
    package static func burstNeighbours(_ a: DuplicateCandidate, _ b: DuplicateCandidate) -> Bool {
        guard let first = a.capturedAt, let second = b.capturedAt, abs(first.timeIntervalSince(second)) <= 2
        else { return false }
        if let cameraA = a.camera, let cameraB = b.camera, cameraA.lowercased() != cameraB.lowercased() {
            return false
        }
        guard let shotA = shotNumber(a.name), let shotB = shotNumber(b.name), shotA.prefix == shotB.prefix,
            shotA.number != shotB.number
        else { return false }
        let numberA = Int(shotA.number.suffix(9)) ?? 0
        let numberB = Int(shotB.number.suffix(9)) ?? 0
        return abs(numberA - numberB) <= 20
    }

    static func timesDiffer(_ first: Date, _ second: Date) -> Bool {
        let difference = abs(first.timeIntervalSince(second))
        guard difference >= 1 else { return false }
        let quarterHours = difference / 900
        let wholeQuarters = quarterHours.rounded()
        let looksLikeZone = wholeQuarters >= 1 && wholeQuarters <= 56 && abs(quarterHours - wholeQuarters) * 900 < 1
        return !looksLikeZone
    }

    /// The prefix (lowercased) and digits at the start of a name's stem, when it has at least three
    /// digits there: `IMG_1001.HEIC` → ("img_", "1001"). `nil` for names without one.
    static func shotNumber(_ name: String) -> (prefix: String, number: String)? {
        let stem = name.split(separator: "/").last.map(String.init) ?? name
        var prefix = ""
        var digits = ""
        for character in stem {
            if digits.isEmpty, character.isLetter || character == "_" || character == "-" {
                guard prefix.count < 8 else { return nil }
                prefix.append(character)
            } else if character.isASCII, character.isNumber {
                digits.append(character)
            } else {
                break
            }
        }
        guard digits.count >= 3 else { return nil }
        return (prefix.lowercased(), digits)
    }
}
