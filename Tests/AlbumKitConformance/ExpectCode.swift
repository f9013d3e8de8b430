#if canImport(Testing)
    import AlbumKitCore
    import Testing

    /// Expects `body` to throw an `AlbumError` with `code`.
    ///
    /// ```
    /// await expectCode(.albumNotFound) { try await library.albumInfo(titled: "Nowhere") }
    /// ```
    public func expectCode<T>(
        _ code: AlbumError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> T
    ) async {
        do {
            _ = try await body()
            Issue.record("expected \(code), nothing was thrown", sourceLocation: sourceLocation)
        } catch {
            #expect((error as? AlbumError)?.code == code, "\(error)", sourceLocation: sourceLocation)
        }
    }
#endif
