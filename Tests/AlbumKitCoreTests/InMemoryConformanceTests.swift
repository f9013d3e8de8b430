import AlbumKitConformance
import Foundation
import Testing

@testable import AlbumKitCore

extension LibraryKind {
    /// The in-memory library apps test with. It stands in for Photos: an app's title keeps leading
    /// to its album after a rename. It keeps no files, so the bytes it holds are the checksum it
    /// records.
    static let inMemory = LibraryKind(name: "in-memory", formerTitleLeadsToRenamedAlbum: true) { directory in
        let backend = InMemoryBackend(readWrite: .authorized, addOnly: nil, answer: .authorized)
        var library = ConformanceLibrary(
            directory: directory, library: PhotoLibrary(backend: backend), reopen: { PhotoLibrary(backend: backend) }
        ) { fixture in
            // No API makes a second album with a title: written into the library's state, the later
            // one first in its list.
            let when = Date(timeIntervalSince1970: 100)
            try backend.state.withLock {
                $0.albums.insert(
                    .init(id: "older", title: try AlbumTitle("Twins"), members: [], createdAt: when), at: 0)
            }
            #expect(
                try await fixture.library.createAlbum(titled: "Twins").id == "older",
                "the in-memory library finds the album it holds")
            try backend.state.withLock {
                $0.albums.append(
                    .init(
                        id: "newer", title: try AlbumTitle("Twins"), members: [],
                        createdAt: when.addingTimeInterval(100)))
            }
            return .init(older: "older", newer: "newer")
        }
        library.readStoredSHA256 = { asset, _, _ in try #require(backend.state.withLock { $0.asset(asset.id)?.sha256 })
        }
        return library
    }
}

/// The conformance kit on the in-memory library.
@Suite struct InMemoryConformanceTests: LibraryConformanceSuite {
    static let kind = LibraryKind.inMemory

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
