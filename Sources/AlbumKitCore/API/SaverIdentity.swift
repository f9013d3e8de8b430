/// Who saved an asset, where the library records it (a shared library): the machine, the
/// operating-system user on it, and the database role the save ran as.
///
/// ```swift
/// if let saver = asset.savedBy { print(saver.user ?? "?", "on", saver.host ?? "?", "as", saver.databaseRole ?? "?") }
/// ```
public struct SaverIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The machine's host name.
    public let host: String?
    /// The operating-system user (`USER`, else the login of the process's user id).
    public let user: String?
    /// The PostgreSQL role of the saving session (`current_user`).
    public let databaseRole: String?

    /// A saver.
    ///
    /// ```swift
    /// let saver = SaverIdentity(host: "kitchen-pc", user: "anna", databaseRole: "anna")
    /// ```
    public init(host: String?, user: String?, databaseRole: String?) {
        self.host = host
        self.user = user
        self.databaseRole = databaseRole
    }

    /// `user@host as role`, with `?` for what is not known.
    public var description: String {
        "\(user ?? "?")@\(host ?? "?")" + (databaseRole.map { " as \($0)" } ?? "")
    }
}
