import AlbumKitConformance
import AlbumKit
import Foundation
import Testing

/// Access read without waiting, the observable access model, access named by intent, and media
/// that failed while it was made (an image that could not be encoded) — on the in-memory library
/// and a catalog (Photos: `PhotoKitAccessModelTests`).
@Suite struct AccessAndImageTests {
    @Test func accessIsReadWithoutWaitingAndNamedByIntent() async throws {
        #expect(PhotoLibraryAccessLevel.savingIntoAlbums == .readWrite)
        #expect(PhotoLibraryAccessLevel.addingOnly == .addOnly)
        let never = PhotoLibrary.inMemory(access: .notDetermined, answer: .limited)
        #expect(never.currentAccess(for: .savingIntoAlbums) == .notDetermined)
        #expect(try await never.requestAccess(for: .savingIntoAlbums) == .limited)
        #expect(never.currentAccess(for: .savingIntoAlbums) == .limited)
        #expect(never.currentAccess(for: .addingOnly) == .authorized, "limited read-write includes adding")

        let addOnly = PhotoLibrary.inMemory(access: .denied, addOnlyAccess: .authorized)
        #expect(addOnly.currentAccess() == .denied && addOnly.currentAccess(for: .addingOnly) == .authorized)

        try await Fixture.withTemporaryDirectory { dir in
            let catalog = try PhotoLibrary.catalog(at: dir.appendingPathComponent("Photos.albumlibrary"))
            #expect(catalog.currentAccess(for: .savingIntoAlbums) == .authorized)
        }
    }

    @MainActor
    @Test func theAccessModelFollowsTheAnswer() async throws {
        let library = PhotoLibrary.inMemory(access: .notDetermined, answer: .denied)
        let model = PhotoLibraryAccessModel(library: library, level: .savingIntoAlbums)
        #expect(model.access == .notDetermined && !model.isGranted && model.level == .readWrite)
        #expect(await model.request() == .denied)
        #expect(model.access == .denied)
        model.refresh()
        #expect(model.access == .denied)

        let granting = PhotoLibraryAccessModel(
            library: PhotoLibrary.inMemory(access: .notDetermined, answer: .authorized), level: .addingOnly)
        #expect(await granting.request() == .authorized && granting.isGranted)
    }

    @Test func mediaThatFailedWhileMadeIsReportedAloneBeforeAnythingIsWritten() async throws {
        try await AlbumAsOneObjectTests.onEveryKind { library in
            var broken = Media.data(Data(), filename: "Drawing.heic")
            broken.preparationError = AlbumError(
                .invalidArgument, "The UIImage given for Drawing.heic cannot be encoded as HEIC or JPEG.",
                file: "Drawing.heic")
            let results = await library.album(titled: "Sketches").save([broken, .file(Fixture.jpeg)])
            guard case .failure(let refusal) = results[0] else {
                Issue.record("the image that could not be encoded was saved")
                return
            }
            #expect(refusal.code == .invalidArgument, "not a later notMedia")
            #expect(refusal.message.contains("cannot be encoded"))
            #expect((try? results[1].get()) != nil, "the batch's other item is saved")
            let stored = try await library.assets(inAlbumTitled: "Sketches")
            #expect(stored.count == 1)
        }
    }

    @Test func anEncodedImageIsNamedByItsFormat() {
        #expect(ImageEncoding.fileName("Drawing.png", for: .heic) == "Drawing.heic")
        #expect(ImageEncoding.fileName(nil, for: .jpeg) == "Image.jpg")
        #expect(ImageEncoding.fileName("IMG_0001", for: .jpeg) == "IMG_0001.jpg")
        #expect(ImageEncoding(format: .jpeg, quality: 3).quality == 1)
        #expect(ImageEncoding.heic.format == .heic && ImageEncoding.heic.quality == 0.9)
    }
}
