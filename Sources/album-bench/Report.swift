/// The results of one bench run, as printed and as written to JSON.
struct Report: Codable, Sendable {
    var tool = "album-bench"
    var date: String
    var commit: String
    var isDirty: Bool
    var isLarge: Bool
    var machine: Machine
    var scenarios: [ScenarioResult] = []
}

/// One scenario: its measurements, the ratios derived from them, and notes.
struct ScenarioResult: Codable, Sendable {
    var id: String
    var title: String
    /// Sizes and settings, e.g. `files: 200`.
    var parameters: [String: String] = [:]
    var metrics: [Metric] = []
    var ratios: [Ratio] = []
    var notes: [String] = []
    /// Set when the scenario could not run (a missing tool, a branch not merged yet).
    var skipped: String?

    init(id: String, title: String) {
        self.id = id
        self.title = title
    }

    mutating func add(_ name: String, _ value: Double, _ unit: String) {
        metrics.append(Metric(name: name, value: value, unit: unit))
    }

    mutating func ratio(_ name: String, _ value: Double, target: String? = nil, met: Bool? = nil) {
        ratios.append(Ratio(name: name, value: value, target: target, isMet: met))
    }

    /// A measured value checked against an absolute target (e.g. peak memory), listed with the ratios.
    mutating func check(_ name: String, _ value: Double, unit: String, target: String, met: Bool) {
        ratios.append(Ratio(name: name, value: value, unit: unit, target: target, isMet: met))
    }
}

/// A measured value.
struct Metric: Codable, Sendable {
    var name: String
    var value: Double
    var unit: String
}

/// A ratio of two values measured in the same run, with its target when there is one.
struct Ratio: Codable, Sendable {
    var name: String
    var value: Double
    /// `nil` for a ratio; a unit for an absolute check.
    var unit: String?
    var target: String?
    var isMet: Bool?
}
