#if !canImport(ObjectiveC)
    import AlbumKitCore
    import Foundation
    import PhotoKitSimulator
    import Testing

    @testable import AlbumKitPhotoKit

    /// Photos' access read without waiting (`PHPhotoLibrary.authorizationStatus(for:)`) and the
    /// observable model following what the user answers and changes in Settings.
    @Suite struct PhotoKitAccessModelTests {
        @Test func theStatusIsReadWithoutWaitingOrPrompting() async throws {
            let h = PhotoKitHarness(answering: .limited)
            await h.run {
                #expect(h.library.currentAccess(for: .savingIntoAlbums) == .notDetermined)
                h.simulation.setAuthorizationStatus(.denied, for: .readWrite)
                #expect(h.library.currentAccess(for: .savingIntoAlbums) == .denied)
                h.simulation.setAuthorizationStatus(.authorized, for: .addOnly)
                #expect(h.library.currentAccess(for: .addingOnly) == .authorized)
            }
            #expect(h.simulation.authorizationPromptCount == 0)
        }

        @Test func theModelShowsTheAnswerAndAChangeInSettings() async throws {
            let h = PhotoKitHarness(answering: .limited)
            await h.run {
                let model = await PhotoLibraryAccessModel(library: h.library, level: .savingIntoAlbums)
                #expect(await model.access == .notDetermined)
                #expect(await model.request() == .limited)
                #expect(await model.isGranted)
                // The user turns access off in Settings and comes back.
                h.simulation.setAuthorizationStatus(.denied, for: .readWrite)
                #expect(await model.access == .limited, "read again only when told")
                await model.refresh()
                #expect(await model.access == .denied)
                #expect(await !model.isGranted)
            }
            #expect(h.simulation.authorizationPrompts == [.readWrite])
        }
    }
#endif
