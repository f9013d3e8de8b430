extension PhotoLibrary {
    /// The library's backend as `capability`, checked once per call: a library kind without it
    /// throws `error`, the message the user sees.
    ///
    /// ```swift
    /// let kept = try await capability((any RecentlyDeletedKeeping).self, orThrow: .recentlyDeletedNotSupported)
    /// ```
    package func capability<Capability>(
        _ capability: Capability.Type, orThrow error: @autoclosure () -> AlbumError
    ) async throws -> Capability {
        guard let found = try await backend as? Capability else { throw error() }
        return found
    }

    /// As ``capability(_:orThrow:)``, throwing `.notSupported`: "This library cannot `what`."
    ///
    /// ```swift
    /// let browsing = try await capability((any AlbumBrowsing).self, for: "list its albums")
    /// ```
    package func capability<Capability>(_ capability: Capability.Type, for what: String) async throws -> Capability {
        try await self.capability(capability, orThrow: AlbumError(.notSupported, "This library cannot \(what)."))
    }

    /// The backend as ``AlbumBrowsing`` (every kind AlbumKit has).
    package func albumBrowsing() async throws -> any AlbumBrowsing {
        try await capability((any AlbumBrowsing).self, for: "list its albums")
    }

    /// The backend as ``AlbumEditing`` (every kind AlbumKit has).
    package func albumEditing() async throws -> any AlbumEditing {
        try await capability((any AlbumEditing).self, for: "change its albums")
    }
}

extension AlbumError {
    /// A library kind that cannot list, move or delete single assets was asked to.
    package static var singleAssetsNotSupported: AlbumError {
        AlbumError(.notSupported, "This library cannot list, move or delete single assets.")
    }

    /// A library kind without a recently deleted of its own was asked for it.
    package static var recentlyDeletedNotSupported: AlbumError {
        AlbumError(
            .notSupported,
            "This library keeps no recently deleted of its own (a folder library uses the desktop Trash, Photos its Recently Deleted album)."
        )
    }
}
