/// Parses ISO 6709 location strings as QuickTime writes them (`+37.7749-122.4194+010.000/`).
enum ISO6709 {
    /// Latitude, longitude and optional altitude, or `nil` when the text is not a decimal-degree location.
    static func parse(_ text: String) -> (latitude: Double, longitude: Double, altitude: Double?)? {
        var numbers: [Double] = []
        var current = ""
        for character in text {
            if character == "+" || character == "-" || character == "/" {
                if !current.isEmpty {
                    guard let value = Double(current) else { return nil }
                    numbers.append(value)
                }
                current = character == "/" ? "" : String(character)
                if character == "/" { break }
            } else if character.isNumber || character == "." {
                current.append(character)
            } else {
                return nil
            }
            if numbers.count >= 3 { break }
        }
        if !current.isEmpty, numbers.count < 3, let value = Double(current) { numbers.append(value) }
        guard numbers.count >= 2, abs(numbers[0]) <= 90, abs(numbers[1]) <= 180 else { return nil }
        return (numbers[0], numbers[1], numbers.count > 2 ? numbers[2] : nil)
    }
}
