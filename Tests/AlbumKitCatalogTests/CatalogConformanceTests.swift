import AlbumKitConformance
import Foundation
import Testing

@testable import AlbumKitCatalog
@testable import AlbumKitCore

extension LibraryKind {
    /// The catalog library: every difference is the default.
    static let catalog = LibraryKind(name: "catalog") { directory in
        let url = directory.appendingPathComponent("Library.albumkit")
        return ConformanceLibrary(
            directory: directory, library: try PhotoLibrary.catalog(at: url),
            reopen: { try PhotoLibrary.catalog(at: url, createIfMissing: false) }
        ) { _ in
            // Another process's records (the journal is the catalog library).
            try LibraryJournal(libraryRoot: url.path).append([
                .createAlbum(id: "newer", title: "Twins", createdAt: 200),
                .createAlbum(id: "older", title: "Twins", createdAt: 100),
            ])
            return .init(older: "older", newer: "newer")
        }
    }
}

/// The conformance kit on the catalog library.
@Suite struct CatalogConformanceTests: LibraryConformanceSuite {
    static let kind = LibraryKind.catalog

    @Test func firstSaveCreatesTheAlbumAndTheNextFindsIt() async throws {
        try await conformance.firstSaveCreatesTheAlbumAndTheNextFindsIt()
    }
    @Test func albumTitlesAreTheAlbumsTitlesInTheirOrder() async throws {
        try await conformance.albumTitlesAreTheAlbumsTitlesInTheirOrder()
    }
    @Test func fiftyConcurrentSavesIntoAMissingAlbumMakeExactlyOne() async throws {
        try await conformance.fiftyConcurrentSavesIntoAMissingAlbumMakeExactlyOne()
    }
    @Test func anAlbumDeletedBehindItsBackIsRecreated() async throws {
        try await conformance.anAlbumDeletedBehindItsBackIsRecreated()
    }
    @Test func aRenamedAlbumKeepsItsIDAndADeletedOneIsMadeAgain() async throws {
        try await conformance.aRenamedAlbumKeepsItsIDAndADeletedOneIsMadeAgain()
    }
    @Test func duplicateTitlesResolveToTheOldest() async throws {
        try await conformance.duplicateTitlesResolveToTheOldest()
    }
    @Test func aBadFileFailsAloneAndTheRestOfTheBatchSaves() async throws {
        try await conformance.aBadFileFailsAloneAndTheRestOfTheBatchSaves()
    }

    @Test func anEmptyPhotoIsDamagedNamingItsCause() async throws {
        try await conformance.anEmptyPhotoIsDamagedNamingItsCause()
    }
    @Test func identicalBytesAreStoredAsTheyCame() async throws {
        try await conformance.identicalBytesAreStoredAsTheyCame()
    }
    @Test func renameKeepsTheID() async throws { try await conformance.renameKeepsTheID() }
    @Test func invalidTitlesAreRefused() async throws { try await conformance.invalidTitlesAreRefused() }
    @Test func assetsAreAddedAndRemovedAndEmptyAlbumsDeleted() async throws {
        try await conformance.assetsAreAddedAndRemovedAndEmptyAlbumsDeleted()
    }
    @Test func everyLibraryAnswersAccessAndPagesWithFilters() async throws {
        try await conformance.everyLibraryAnswersAccessAndPagesWithFilters()
    }
    @Test func changesReportWhatTheAppAndOthersDo() async throws {
        try await conformance.changesReportWhatTheAppAndOthersDo()
    }
    @Test func descriptionsGivenWhenSavingAreKept() async throws {
        try await conformance.descriptionsGivenWhenSavingAreKept()
    }
    @Test func positionsInAnAlbumAnswerAsItsPages() async throws {
        try await conformance.positionsInAnAlbumAnswerAsItsPages()
    }

    @Test func anAlbumsPhotosAreFoundByTheirNames() async throws {
        try await conformance.anAlbumsPhotosAreFoundByTheirNames()
    }
}
