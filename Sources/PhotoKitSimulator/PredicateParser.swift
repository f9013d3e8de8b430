#if !canImport(ObjectiveC)
    import Foundation

    /// A recursive-descent parser for the predicate subset of ``PredicateExpression``.
    struct PredicateParser {
        private enum Token: Equatable {
            case word(String)
            case symbol(String)
            case quoted(String)
            case number(Double, isInteger: Bool)
            case specifier(Character)
            case modifier(String)
        }

        private var tokens: [Token] = []
        private var position = 0
        private var arguments: [PredicateValue]
        private var nextArgument = 0
        private var failed = false

        init(format: PredicateFormat) {
            arguments = format.arguments
            tokens = Self.tokenize(format.format) ?? []
            failed = tokens.isEmpty
        }

        mutating func parse() -> PredicateExpression? {
            guard !failed, let expression = parseOr(), position == tokens.count, !failed else { return nil }
            return expression
        }

        // MARK: Tokens

        private static func tokenize(_ text: String) -> [Token]? {
            var tokens: [Token] = []
            let chars = Array(text)
            var i = 0
            while i < chars.count {
                let c = chars[i]
                if c.isWhitespace {
                    i += 1
                    continue
                }
                if c == "%" {
                    var j = i + 1
                    while j < chars.count, chars[j] == "l" || chars[j] == "q" || chars[j] == "h" { j += 1 }
                    guard j < chars.count, "@KdiufDUs".contains(chars[j]) else { return nil }
                    tokens.append(.specifier(chars[j] == "D" || chars[j] == "U" ? "d" : chars[j]))
                    i = j + 1
                } else if c == "'" || c == "\"" {
                    guard let end = chars[(i + 1)...].firstIndex(of: c) else { return nil }
                    tokens.append(.quoted(String(chars[(i + 1)..<end])))
                    i = end + 1
                } else if c == "[" {
                    guard let end = chars[i...].firstIndex(of: "]") else { return nil }
                    tokens.append(.modifier(String(chars[(i + 1)..<end]).lowercased()))
                    i = end + 1
                } else if c.isNumber || (c == "-" && i + 1 < chars.count && chars[i + 1].isNumber) {
                    var j = i + 1
                    while j < chars.count, chars[j].isNumber || chars[j] == "." { j += 1 }
                    let text = String(chars[i..<j])
                    guard let value = Double(text) else { return nil }
                    tokens.append(.number(value, isInteger: !text.contains(".")))
                    i = j
                } else if c.isLetter || c == "_" || c == "$" {
                    var j = i + 1
                    while j < chars.count, chars[j].isLetter || chars[j].isNumber || chars[j] == "_" || chars[j] == "."
                    { j += 1 }
                    tokens.append(.word(String(chars[i..<j])))
                    i = j
                } else {
                    let two = i + 1 < chars.count ? String(chars[i...(i + 1)]) : ""
                    if ["==", "!=", "<>", "<=", ">=", "=<", "=>", "&&", "||"].contains(two) {
                        tokens.append(.symbol(two))
                        i += 2
                    } else if "=<>!()".contains(c) {
                        tokens.append(.symbol(String(c)))
                        i += 1
                    } else {
                        return nil
                    }
                }
            }
            return tokens
        }

        private var current: Token? { position < tokens.count ? tokens[position] : nil }

        private mutating func isKeyword(_ words: String...) -> Bool {
            if case .word(let word)? = current, words.contains(word.uppercased()) { return true }
            if case .symbol(let symbol)? = current, words.contains(symbol) { return true }
            return false
        }

        private mutating func takeArgument() -> PredicateValue {
            guard nextArgument < arguments.count else {
                failed = true
                return .null
            }
            defer { nextArgument += 1 }
            return arguments[nextArgument]
        }

        // MARK: Grammar

        private mutating func parseOr() -> PredicateExpression? {
            guard var lhs = parseAnd() else { return nil }
            while isKeyword("OR", "||") {
                position += 1
                guard let rhs = parseAnd() else { return nil }
                lhs = .or(lhs, rhs)
            }
            return lhs
        }

        private mutating func parseAnd() -> PredicateExpression? {
            guard var lhs = parseUnary() else { return nil }
            while isKeyword("AND", "&&") {
                position += 1
                guard let rhs = parseUnary() else { return nil }
                lhs = .and(lhs, rhs)
            }
            return lhs
        }

        private mutating func parseUnary() -> PredicateExpression? {
            if isKeyword("NOT", "!") {
                position += 1
                return parseUnary().map(PredicateExpression.not)
            }
            if current == .symbol("(") {
                position += 1
                guard let inner = parseOr(), current == .symbol(")") else { return nil }
                position += 1
                return inner
            }
            if isKeyword("TRUEPREDICATE") {
                position += 1
                return .constant(true)
            }
            if isKeyword("FALSEPREDICATE") {
                position += 1
                return .constant(false)
            }
            return parseComparison()
        }

        private mutating func parseComparison() -> PredicateExpression? {
            let key: String
            switch current {
            case .word(let word)?: key = word
            case .specifier("K")?:
                guard case .string(let name) = takeArgument() else { return nil }
                key = name
            default: return nil
            }
            position += 1

            let op: PredicateExpression.Operator
            switch current {
            case .symbol("="), .symbol("=="): op = .equal
            case .symbol("!="), .symbol("<>"): op = .notEqual
            case .symbol("<"): op = .less
            case .symbol("<="), .symbol("=<"): op = .lessOrEqual
            case .symbol(">"): op = .greater
            case .symbol(">="), .symbol("=>"): op = .greaterOrEqual
            case .word(let word)?:
                switch word.uppercased() {
                case "IN": op = .in
                case "BEGINSWITH": op = .beginsWith
                case "ENDSWITH": op = .endsWith
                case "CONTAINS": op = .contains
                case "LIKE": op = .like
                default: return nil
                }
            default: return nil
            }
            position += 1

            var options: PredicateExpression.Options = []
            if case .modifier(let text)? = current {
                for flag in text {
                    switch flag {
                    case "c": options.insert(.caseInsensitive)
                    case "d": options.insert(.diacriticInsensitive)
                    default: return nil
                    }
                }
                position += 1
            }

            let value: PredicateValue
            switch current {
            case .specifier(let kind)?:
                let argument = takeArgument()
                switch (kind, argument) {
                case ("@", _): value = argument
                case ("d", _), ("i", _), ("u", _): value = argument.number.map { .integer(Int($0)) } ?? argument
                case ("f", _): value = argument.number.map { .double($0) } ?? argument
                case ("s", _): value = argument
                default: return nil
                }
            case .quoted(let text)?: value = .string(text)
            case .number(let number, let isInteger)?: value = isInteger ? .integer(Int(number)) : .double(number)
            case .word(let word)?:
                switch word.uppercased() {
                case "TRUE", "YES": value = .bool(true)
                case "FALSE", "NO": value = .bool(false)
                case "NIL", "NULL": value = .null
                default: return nil
                }
            default: return nil
            }
            position += 1
            if case .unsupported = value { return nil }
            return .comparison(key: key, operator: op, options: options, value: value)
        }
    }
#endif
