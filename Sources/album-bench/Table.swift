import Foundation

/// The human-readable table on standard output (progress goes to standard error).
enum Table {
    static func header(_ report: Report) {
        let machine = report.machine
        emit("album-bench \(report.isLarge ? "--large" : "(default sizes; --large for full sizes)")")
        emit("commit   \(report.commit)\(report.isDirty ? " (with uncommitted changes)" : "")")
        emit("machine  \(machine.cpuModel), \(machine.cores) cores, \(machine.memoryGB) GB, \(machine.os)")
        emit("kernel   \(machine.kernel); scratch \(machine.scratchDirectory) on \(machine.fileSystem)")
        emit("swift    \(machine.swiftVersion); load average at start \(machine.loadAverage)")
    }

    static func print(_ result: ScenarioResult) {
        emit("")
        let parameters = result.parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        emit("== \(result.id): \(result.title)  [\(parameters.joined(separator: ", "))]")
        if let skipped = result.skipped {
            emit("   SKIPPED: \(skipped)")
            return
        }
        let width = max(
            result.metrics.map(\.name.count).max() ?? 0, result.ratios.map(\.name.count).max() ?? 0, 20)
        for metric in result.metrics {
            emit("   \(pad(metric.name, width))  \(format(metric.value)) \(metric.unit)")
        }
        for ratio in result.ratios {
            let value = ratio.unit.map { " \(format(ratio.value)) \($0)" } ?? String(format: "%.2f×", ratio.value)
            var line = "   \(pad(ratio.name, width))  \(value)"
            if let spread = ratio.spread {
                // The rounds' own median too: steadier than the ratio of medians when the disk
                // switches between two speeds during a row.
                let median = Statistics.median(ratio.rounds ?? [])
                line +=
                    ratio.unit == nil
                    ? String(format: " (rounds %.2f–%.2f, median %.2f)", spread.low, spread.high, median)
                    : " (rounds \(format(spread.low))–\(format(spread.high)), median \(format(median)))"
            }
            if let target = ratio.target { line += "   target \(target)" }
            if let met = ratio.isMet { line += met ? "   met" : "   MISSED" }
            if ratio.failsCheck == true { line += " beyond the run's spread" }
            emit(line)
        }
        for note in result.notes { emit("   note: \(note)") }
    }

    static func progress(_ message: String) {
        FileHandle.standardError.write(Data("album-bench: \(message)\n".utf8))
    }

    private static func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    private static func format(_ value: Double) -> String {
        switch abs(value) {
        case 1000...: String(format: "%.0f", value)
        case 10..<1000: String(format: "%.1f", value)
        default: String(format: "%.3f", value)
        }
    }
}
