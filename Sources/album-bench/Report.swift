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

    /// A row of paired rounds: the ratio of the medians, the min–max of the rounds' own ratios, and
    /// the target. `faster` rows divide the baseline's time by ours (higher is better); the others
    /// divide ours by the baseline's (a latency, lower is better).
    mutating func paired(_ name: String, ours: [Double], baseline: [Double], faster: Bool, goal: Goal?) {
        let value =
            faster
            ? Statistics.median(baseline) / Statistics.median(ours)
            : Statistics.median(ours) / Statistics.median(baseline)
        let rounds = zip(ours, baseline).map { faster ? $1 / $0 : $0 / $1 }
        ratios.append(Ratio(name: name, value: value, rounds: rounds, goal: goal))
    }

    /// A row of one measured value per round (e.g. milliseconds), its median against `goal`.
    mutating func measured(_ name: String, _ values: [Double], unit: String, goal: Goal?) {
        ratios.append(Ratio(name: name, value: Statistics.median(values), unit: unit, rounds: values, goal: goal))
    }
}

/// A row's target: at least or at most `limit`.
struct Goal: Codable, Sendable, CustomStringConvertible {
    var atLeast: Bool
    var limit: Double

    static func atLeast(_ limit: Double) -> Goal { Goal(atLeast: true, limit: limit) }
    static func atMost(_ limit: Double) -> Goal { Goal(atLeast: false, limit: limit) }

    var description: String { String(format: atLeast ? "≥ %g" : "≤ %g", limit) }

    func isMet(by value: Double) -> Bool { atLeast ? value >= limit : value <= limit }

    /// How far `value` is on the wrong side of the limit (0 when it is met).
    func shortfall(of value: Double) -> Double { max(0, atLeast ? limit - value : value - limit) }
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
    /// Each paired round's own value (the spread of the run), for rows measured in rounds.
    var rounds: [Double]?
    /// For rows with rounds: whether `album-bench --check` fails on this row, i.e. it misses its
    /// target by more than the run's own spread (max − min of `rounds`).
    var failsCheck: Bool?

    init(name: String, value: Double, unit: String? = nil, target: String? = nil, isMet: Bool? = nil) {
        self.name = name
        self.value = value
        self.unit = unit
        self.target = target
        self.isMet = isMet
    }

    init(name: String, value: Double, unit: String? = nil, rounds: [Double], goal: Goal?) {
        self.init(name: name, value: value, unit: unit, target: goal?.description, isMet: goal?.isMet(by: value))
        self.rounds = rounds
        if let goal, let low = rounds.min(), let high = rounds.max() {
            failsCheck = goal.shortfall(of: value) > high - low
        }
    }

    /// The smallest and largest round, when the row has rounds.
    var spread: (low: Double, high: Double)? {
        guard let low = rounds?.min(), let high = rounds?.max() else { return nil }
        return (low, high)
    }
}
