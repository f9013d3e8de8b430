/// A QR code (model 2, byte mode, error correction level L, versions 1 to 9: up to 230 bytes), for
/// the link `album serve` prints: a phone's camera opens it.
///
/// ```swift
/// let code = try QRCode(text: "http://192.168.1.20:8080/?token=…")
/// print(code.terminalText)   // half-block characters, black on white
/// ```
package struct QRCode: Sendable {
    /// `modules[row][column]`: `true` is dark.
    package let modules: [[Bool]]
    package let version: Int
    package let mask: Int
    package var size: Int { modules.count }

    // Per version 1…9 at level L: all codewords, error correction codewords per block, blocks.
    static let totalCodewords = [26, 44, 70, 100, 134, 172, 196, 242, 292]
    static let eccPerBlock = [7, 10, 15, 20, 26, 18, 20, 24, 30]
    static let blocks = [1, 1, 1, 1, 1, 2, 2, 2, 2]
    static let alignment: [[Int]] = [
        [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46],
    ]

    /// A code for `text`'s UTF-8 bytes in the smallest version that holds them; `mask` (0…7) forces
    /// a mask, else the one the standard's penalty rules prefer.
    ///
    /// - Throws: ``TooLong`` over 230 bytes.
    package init(text: String, mask forced: Int? = nil) throws {
        let bytes = Array(text.utf8)
        guard
            let version = (1...9).first(where: {
                4 + 8 + bytes.count * 8
                    <= (Self.totalCodewords[$0 - 1] - Self.eccPerBlock[$0 - 1] * Self.blocks[$0 - 1]) * 8
            })
        else { throw TooLong(count: bytes.count) }
        self.version = version
        var matrix = Matrix(version: version)
        matrix.place(Self.codewords(bytes, version: version))
        var best = forced ?? 0
        if forced == nil {
            var lowest = Int.max
            for candidate in 0..<8 {
                var trial = matrix
                trial.apply(mask: candidate)
                trial.drawFormat(mask: candidate)
                let score = trial.penalty()
                if score < lowest { (lowest, best) = (score, candidate) }
            }
        }
        matrix.apply(mask: best)
        matrix.drawFormat(mask: best)
        self.mask = best
        self.modules = matrix.modules
    }

    /// Text over 230 bytes: no version this encoder makes holds it.
    package struct TooLong: Error {
        package var count: Int
    }

    /// The code as lines of text for a terminal: two rows of modules per line (`▀`, `▄`, `█`), black
    /// on white (ANSI colours), with a light border of two modules.
    package var terminalText: String {
        let border = 2
        let side = size + 2 * border
        func dark(_ row: Int, _ column: Int) -> Bool {
            let (r, c) = (row - border, column - border)
            return r >= 0 && c >= 0 && r < size && c < size && modules[r][c]
        }
        var lines: [String] = []
        for row in Swift.stride(from: 0, to: side, by: 2) {
            var line = "\u{1B}[30;47m"
            for column in 0..<side {
                switch (dark(row, column), dark(row + 1, column)) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line + "\u{1B}[0m")
        }
        return lines.joined(separator: "\n")
    }

    /// The data codewords (mode, count, bytes, terminator, padding) with their error correction,
    /// interleaved as the symbol holds them.
    static func codewords(_ bytes: [UInt8], version: Int) -> [UInt8] {
        let total = totalCodewords[version - 1]
        let ecc = eccPerBlock[version - 1]
        let blockCount = blocks[version - 1]
        let dataCount = total - ecc * blockCount
        var bits: [Bool] = []
        func append(_ value: Int, _ count: Int) {
            for shift in (0..<count).reversed() { bits.append((value >> shift) & 1 == 1) }
        }
        append(0b0100, 4)
        append(bytes.count, 8)
        for byte in bytes { append(Int(byte), 8) }
        append(0, min(4, dataCount * 8 - bits.count))
        while bits.count % 8 != 0 { bits.append(false) }
        var data: [UInt8] = Swift.stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
        var pad: UInt8 = 0xEC
        while data.count < dataCount {
            data.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        // Blocks at level L for versions 1…9 are all the same length.
        let perBlock = dataCount / blockCount
        let divisor = ReedSolomon.divisor(degree: ecc)
        let split = (0..<blockCount).map { Array(data[$0 * perBlock..<($0 + 1) * perBlock]) }
        let corrections = split.map { ReedSolomon.remainder($0, divisor) }
        var result: [UInt8] = []
        for index in 0..<perBlock { for block in split { result.append(block[index]) } }
        for index in 0..<ecc { for block in corrections { result.append(block[index]) } }
        return result
    }

    /// Reed–Solomon error correction over GF(256) with the polynomial 0x11D.
    enum ReedSolomon {
        static func multiply(_ x: UInt8, _ y: UInt8) -> UInt8 {
            var z = 0
            for shift in (0..<8).reversed() {
                z = (z << 1) ^ ((z >> 7) * 0x11D)
                z ^= Int((y >> UInt8(shift)) & 1) * Int(x)
            }
            return UInt8(z & 0xFF)
        }

        static func divisor(degree: Int) -> [UInt8] {
            var result = [UInt8](repeating: 0, count: degree)
            result[degree - 1] = 1
            var root: UInt8 = 1
            for _ in 0..<degree {
                for index in 0..<degree {
                    result[index] = multiply(result[index], root)
                    if index + 1 < degree { result[index] ^= result[index + 1] }
                }
                root = multiply(root, 2)
            }
            return result
        }

        static func remainder(_ data: [UInt8], _ divisor: [UInt8]) -> [UInt8] {
            var result = [UInt8](repeating: 0, count: divisor.count)
            for byte in data {
                let factor = byte ^ result.removeFirst()
                result.append(0)
                for index in result.indices { result[index] ^= multiply(divisor[index], factor) }
            }
            return result
        }
    }

    /// The symbol being drawn: its modules and which of them are function patterns.
    struct Matrix {
        var modules: [[Bool]]
        var isFunction: [[Bool]]
        let version: Int
        var size: Int { modules.count }

        init(version: Int) {
            self.version = version
            let size = version * 4 + 17
            modules = Array(repeating: Array(repeating: false, count: size), count: size)
            isFunction = modules
            for index in 0..<size {
                set(column: 6, row: index, index % 2 == 0)
                set(column: index, row: 6, index % 2 == 0)
            }
            for (column, row) in [(3, 3), (size - 4, 3), (3, size - 4)] {
                for dy in -4...4 {
                    for dx in -4...4 where (0..<size).contains(column + dx) && (0..<size).contains(row + dy) {
                        let distance = max(abs(dx), abs(dy))
                        set(column: column + dx, row: row + dy, distance != 2 && distance != 4)
                    }
                }
            }
            let positions = QRCode.alignment[version - 1]
            for (i, x) in positions.enumerated() {
                for (j, y) in positions.enumerated() {
                    let corner =
                        (i == 0 && j == 0) || (i == 0 && j == positions.count - 1)
                        || (i == positions.count - 1 && j == 0)
                    guard !corner else { continue }
                    for dy in -2...2 {
                        for dx in -2...2 { set(column: x + dx, row: y + dy, max(abs(dx), abs(dy)) != 1) }
                    }
                }
            }
            drawFormat(mask: 0)
            if version >= 7 {
                var remainder = version
                for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
                let bits = version << 12 | remainder
                for index in 0..<18 {
                    let bit = (bits >> index) & 1 == 1
                    let a = size - 11 + index % 3
                    let b = index / 3
                    set(column: a, row: b, bit)
                    set(column: b, row: a, bit)
                }
            }
        }

        mutating func set(column: Int, row: Int, _ dark: Bool) {
            modules[row][column] = dark
            isFunction[row][column] = true
        }

        /// The format information (level L, `mask`) in both of its places, and the dark module.
        mutating func drawFormat(mask: Int) {
            let data = 1 << 3 | mask
            var remainder = data
            for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
            let bits = (data << 10 | remainder) ^ 0x5412
            func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
            for index in 0...5 { set(column: 8, row: index, bit(index)) }
            set(column: 8, row: 7, bit(6))
            set(column: 8, row: 8, bit(7))
            set(column: 7, row: 8, bit(8))
            for index in 9..<15 { set(column: 14 - index, row: 8, bit(index)) }
            for index in 0..<8 { set(column: size - 1 - index, row: 8, bit(index)) }
            for index in 8..<15 { set(column: 8, row: size - 15 + index, bit(index)) }
            set(column: 8, row: size - 8, true)
        }

        /// The codewords, bit by bit, up and down two columns at a time from the bottom right.
        mutating func place(_ codewords: [UInt8]) {
            var index = 0
            var right = size - 1
            while right >= 1 {
                if right == 6 { right = 5 }
                for vertical in 0..<size {
                    for offset in 0..<2 {
                        let column = right - offset
                        let upward = (right + 1) & 2 == 0
                        let row = upward ? size - 1 - vertical : vertical
                        if !isFunction[row][column] && index < codewords.count * 8 {
                            modules[row][column] = (codewords[index >> 3] >> UInt8(7 - (index & 7))) & 1 == 1
                            index += 1
                        }
                    }
                }
                right -= 2
            }
        }

        mutating func apply(mask: Int) {
            for row in 0..<size {
                for column in 0..<size where !isFunction[row][column] {
                    let (x, y) = (column, row)
                    let flip =
                        switch mask {
                        case 0: (x + y) % 2 == 0
                        case 1: y % 2 == 0
                        case 2: x % 3 == 0
                        case 3: (x + y) % 3 == 0
                        case 4: (x / 3 + y / 2) % 2 == 0
                        case 5: x * y % 2 + x * y % 3 == 0
                        case 6: (x * y % 2 + x * y % 3) % 2 == 0
                        default: ((x + y) % 2 + x * y % 3) % 2 == 0
                        }
                    if flip { modules[row][column].toggle() }
                }
            }
        }

        /// The standard's penalty: runs of five or more, 2×2 blocks, finder-like patterns, and the
        /// distance of the dark share from half.
        func penalty() -> Int {
            var score = 0
            let lines = modules + (0..<size).map { column in modules.map { $0[column] } }
            let finderLike: [Bool] = [true, false, true, true, true, false, true]
            for line in lines {
                var run = 1
                for index in 1..<line.count {
                    if line[index] == line[index - 1] {
                        run += 1
                    } else {
                        if run >= 5 { score += run - 2 }
                        run = 1
                    }
                }
                if run >= 5 { score += run - 2 }
                for start in 0...(line.count - 7) where Array(line[start..<start + 7]) == finderLike {
                    let before = start >= 4 && !line[(start - 4)..<start].contains(true)
                    let after = start + 11 <= line.count && !line[(start + 7)..<(start + 11)].contains(true)
                    if before || after { score += 40 }
                }
            }
            for row in 0..<(size - 1) {
                for column in 0..<(size - 1) {
                    let color = modules[row][column]
                    if modules[row][column + 1] == color && modules[row + 1][column] == color
                        && modules[row + 1][column + 1] == color
                    {
                        score += 3
                    }
                }
            }
            let dark = modules.joined().filter { $0 }.count
            let total = size * size
            score += (abs(dark * 20 - total * 10) + total - 1) / total * 10 - 10
            return score
        }
    }
}
