#if !canImport(ObjectiveC)
    import Foundation

    /// A parsed predicate: the subset of the predicate format language that Photos fetch
    /// options use (comparisons of keys with arguments or literals, `IN`, `BEGINSWITH`,
    /// `ENDSWITH`, `CONTAINS`, `LIKE`, the `[c]`/`[d]`/`[cd]` modifiers, `AND`, `OR`,
    /// `NOT`, parentheses, `%@`, `%K` and the integer/float specifiers).
    indirect enum PredicateExpression: Sendable, Equatable {
        case constant(Bool)
        case not(PredicateExpression)
        case and(PredicateExpression, PredicateExpression)
        case or(PredicateExpression, PredicateExpression)
        case comparison(key: String, operator: Operator, options: Options, value: PredicateValue)

        /// A comparison operator.
        enum Operator: Sendable, Equatable {
            case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
            case `in`, beginsWith, endsWith, contains, like
        }

        /// String comparison modifiers.
        struct Options: OptionSet, Sendable, Equatable {
            let rawValue: Int
            static let caseInsensitive = Options(rawValue: 1)
            static let diacriticInsensitive = Options(rawValue: 2)
        }

        /// Parses `format`; returns `nil` when it is outside the supported subset.
        static func parse(_ format: PredicateFormat) -> PredicateExpression? {
            var parser = PredicateParser(format: format)
            return parser.parse()
        }

        /// The keys this expression reads.
        var keys: [String] {
            switch self {
            case .constant: []
            case .not(let inner): inner.keys
            case .and(let lhs, let rhs), .or(let lhs, let rhs): lhs.keys + rhs.keys
            case .comparison(let key, _, _, _): [key]
            }
        }

        /// Evaluates the expression; `value(key)` supplies the object's property values.
        func evaluate(_ value: (String) -> PredicateValue) -> Bool {
            switch self {
            case .constant(let result):
                return result
            case .not(let inner):
                return !inner.evaluate(value)
            case .and(let lhs, let rhs):
                return lhs.evaluate(value) && rhs.evaluate(value)
            case .or(let lhs, let rhs):
                return lhs.evaluate(value) || rhs.evaluate(value)
            case .comparison(let key, let op, let options, let rhs):
                return Self.compare(value(key), op, rhs, options)
            }
        }

        private static func normalized(_ string: String, _ options: Options) -> String {
            var compareOptions: String.CompareOptions = []
            if options.contains(.caseInsensitive) { compareOptions.insert(.caseInsensitive) }
            if options.contains(.diacriticInsensitive) { compareOptions.insert(.diacriticInsensitive) }
            return compareOptions.isEmpty ? string : string.folding(options: compareOptions, locale: nil)
        }

        private static func equal(_ lhs: PredicateValue, _ rhs: PredicateValue, _ options: Options) -> Bool {
            switch (lhs, rhs) {
            case (.string(let a), .string(let b)): return normalized(a, options) == normalized(b, options)
            case (.null, .null): return true
            case (.null, _), (_, .null): return false
            default:
                if let a = lhs.number, let b = rhs.number { return a == b }
                return lhs == rhs
            }
        }

        private static func order(_ lhs: PredicateValue, _ rhs: PredicateValue, _ options: Options) -> ComparisonResult?
        {
            switch (lhs, rhs) {
            case (.string(let a), .string(let b)):
                let a = normalized(a, options)
                let b = normalized(b, options)
                return a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
            default:
                guard let a = lhs.number, let b = rhs.number else { return nil }
                return a == b ? .orderedSame : (a < b ? .orderedAscending : .orderedDescending)
            }
        }

        private static func compare(_ lhs: PredicateValue, _ op: Operator, _ rhs: PredicateValue, _ options: Options)
            -> Bool
        {
            switch op {
            case .equal: return equal(lhs, rhs, options)
            case .notEqual: return !equal(lhs, rhs, options)
            case .less: return order(lhs, rhs, options) == .orderedAscending
            case .lessOrEqual: return [.orderedAscending, .orderedSame].contains(order(lhs, rhs, options))
            case .greater: return order(lhs, rhs, options) == .orderedDescending
            case .greaterOrEqual: return [.orderedDescending, .orderedSame].contains(order(lhs, rhs, options))
            case .in:
                if case .list(let items) = rhs { return items.contains { equal(lhs, $0, options) } }
                if case .string(let haystack) = rhs, case .string(let needle) = lhs {
                    return normalized(haystack, options).contains(normalized(needle, options))
                }
                return false
            case .beginsWith, .endsWith, .contains, .like:
                guard case .string(let a) = lhs, case .string(let b) = rhs else { return false }
                let subject = normalized(a, options)
                let pattern = normalized(b, options)
                switch op {
                case .beginsWith: return subject.hasPrefix(pattern)
                case .endsWith: return subject.hasSuffix(pattern)
                case .contains: return subject.contains(pattern)
                default: return like(Array(subject), Array(pattern))
                }
            }
        }

        /// `LIKE` matching with `*` (any run) and `?` (one character).
        private static func like(_ subject: [Character], _ pattern: [Character]) -> Bool {
            guard let first = pattern.first else { return subject.isEmpty }
            let rest = Array(pattern.dropFirst())
            switch first {
            case "*":
                return (0...subject.count).contains { like(Array(subject[$0...]), rest) }
            case "?":
                return !subject.isEmpty && like(Array(subject.dropFirst()), rest)
            default:
                return subject.first == first && like(Array(subject.dropFirst()), rest)
            }
        }
    }
#endif
