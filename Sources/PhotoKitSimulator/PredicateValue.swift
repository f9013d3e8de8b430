#if !canImport(ObjectiveC)
    import Foundation

    /// A value in a simulated predicate: an argument of `NSPredicate(format:_:)`, a literal
    /// in the format, or a property of a fetched object.
    enum PredicateValue: Sendable, Equatable {
        case null
        case bool(Bool)
        case integer(Int)
        case double(Double)
        case string(String)
        case date(Date)
        case list([PredicateValue])
        /// A value the simulator does not understand, kept as its description.
        case unsupported(String)

        /// Converts a predicate argument.
        init(argument: Any) {
            switch argument {
            case let value as PredicateValue: self = value
            case let value as String: self = .string(value)
            case let value as NSString: self = .string(value as String)
            case let value as Bool: self = .bool(value)
            case let value as Int: self = .integer(value)
            case let value as Int32: self = .integer(Int(value))
            case let value as Int64: self = .integer(Int(value))
            case let value as UInt: self = .integer(Int(value))
            case let value as UInt32: self = .integer(Int(value))
            case let value as Double: self = .double(value)
            case let value as Float: self = .double(Double(value))
            case let value as Date: self = .date(value)
            case let value as NSDate: self = .date(value as Date)
            case let value as NSNumber: self = .double(value.doubleValue)
            case let value as [Any]: self = .list(value.map(PredicateValue.init(argument:)))
            case let value as NSArray:
                self = .list((0..<value.count).map { PredicateValue(argument: value.object(at: $0)) })
            case let value as Set<String>: self = .list(value.sorted().map(PredicateValue.string))
            case let value as PHObject: self = .string(value.localIdentifier)
            default: self = .unsupported(String(describing: argument))
            }
        }

        /// The value as a number, when it is one.
        var number: Double? {
            switch self {
            case .bool(let value): value ? 1 : 0
            case .integer(let value): Double(value)
            case .double(let value): value
            case .date(let value): value.timeIntervalSinceReferenceDate
            default: nil
            }
        }
    }

    /// A format and its arguments, as recorded by `NSPredicate(format:_:)` on Linux.
    struct PredicateFormat: Sendable, Equatable {
        /// The format string.
        let format: String
        /// The arguments, in order.
        let arguments: [PredicateValue]
    }
#endif
