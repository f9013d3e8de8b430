#if canImport(Testing)
    import Testing

    /// What a kind's test target declares to run the conformance kit: its kind, and one test per
    /// behaviour of ``LibraryConformance``. A behaviour added to the kit is added here too, so that
    /// every kind's suite stops compiling until it runs it.
    ///
    /// ```
    /// @Suite struct CatalogConformanceTests: LibraryConformanceSuite {
    ///     static let kind = LibraryKind.catalog
    ///     @Test func renameKeepsTheID() async throws { try await conformance.renameKeepsTheID() }
    ///     …
    /// }
    /// ```
    public protocol LibraryConformanceSuite {
        /// The kind the suite checks.
        static var kind: LibraryKind { get }

        func firstSaveCreatesTheAlbumAndTheNextFindsIt() async throws
        func albumTitlesAreTheAlbumsTitlesInTheirOrder() async throws
        func fiftyConcurrentSavesIntoAMissingAlbumMakeExactlyOne() async throws
        func anAlbumDeletedBehindItsBackIsRecreated() async throws
        func aRenamedAlbumKeepsItsIDAndADeletedOneIsMadeAgain() async throws
        func duplicateTitlesResolveToTheOldest() async throws
        func aBadFileFailsAloneAndTheRestOfTheBatchSaves() async throws
        func anEmptyPhotoIsDamagedNamingItsCause() async throws
        func identicalBytesAreStoredAsTheyCame() async throws
        func renameKeepsTheID() async throws
        func invalidTitlesAreRefused() async throws
        func assetsAreAddedAndRemovedAndEmptyAlbumsDeleted() async throws
        func everyLibraryAnswersAccessAndPagesWithFilters() async throws
        func changesReportWhatTheAppAndOthersDo() async throws
        func descriptionsGivenWhenSavingAreKept() async throws
        func positionsInAnAlbumAnswerAsItsPages() async throws
        func anAlbumsPhotosAreFoundByTheirNames() async throws
    }

    extension LibraryConformanceSuite {
        /// The kit's behaviours for this suite's kind.
        public var conformance: LibraryConformance { LibraryConformance(Self.kind) }
    }
#endif
