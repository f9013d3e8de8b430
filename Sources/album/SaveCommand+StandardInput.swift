import AlbumKit
import Foundation

extension SaveCommand {

    /// Paths from stdin, as bytes: one per line, or NUL-separated (`-0`). Empty entries are ignored.
    static func readStandardInput(nulSeparated: Bool) -> [[UInt8]] {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        let separator: UInt8 = nulSeparated ? 0 : UInt8(ascii: "\n")
        return data.split(separator: separator, omittingEmptySubsequences: true).map { Array($0) }
    }
}
