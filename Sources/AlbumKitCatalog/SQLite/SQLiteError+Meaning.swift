import AlbumKitCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension SQLiteError {
    /// The file this connection opened was replaced (`SQLITE_READONLY_DBMOVED`).
    var meansReplaced: Bool { code == Code.readOnly | (4 << 8) }

    /// The index's file is damaged (a page fails its checksum, garbled structure), or no longer holds
    /// the tables its checked schema has (another program dropped or emptied them after it was
    /// opened: AlbumKit's statements name only tables and columns of that schema): rebuilt.
    var meansDamage: Bool {
        code == Code.ioErrorData || primaryCode == Code.corrupt || primaryCode == Code.notADatabase
            || (primaryCode == Code.error
                && (message.hasPrefix("no such table") || message.hasPrefix("no such column")))
    }
}
