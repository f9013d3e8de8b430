// The picker is PhotosUI's (`PHPhotoLibrary+PhotosUISupport.h`: iOS 14+, the completion form 15+,
// unavailable on tvOS and macOS). Scripts/apple-check.sh's SDK copy has no PhotosUI, so this file is
// not type-checked there; its one call is the documented
// `presentLimitedLibraryPicker(from:completionHandler: @escaping @Sendable ([String]) -> Void)`.
#if canImport(Photos) && canImport(PhotosUI) && canImport(UIKit) && os(iOS)
    import AlbumKitPhotoKit
    import Photos
    import PhotosUI
    import UIKit

    extension PhotoLibrary {
        /// Shows Photos' picker that lets a user with limited access select more photos (or
        /// deselect some) for the app; returns the identifiers of the assets newly selected. Call it
        /// from a button your app shows when ``PhotoLibrary/access(for:)`` is
        /// ``PhotoLibraryAccess/limited``; any other library (or access) returns `[]` at once.
        ///
        /// ```swift
        /// if try await PhotoLibrary.system.access(for: .readWrite) == .limited {
        ///     let added = await PhotoLibrary.system.presentLimitedLibraryPicker(from: viewController)
        /// }
        /// ```
        /// Photos also offers the picker itself once per app launch when access is limited; add
        /// `PHPhotoLibraryPreventAutomaticLimitedAccessAlert` = `YES` to Info.plist to show it only here.
        @MainActor
        public func presentLimitedLibraryPicker(from controller: UIViewController) async -> [String] {
            // No library (no access): no picker, as for one that is not limited.
            guard (try? await backend) is PhotoKitBackend,
                PHPhotoLibrary.authorizationStatus(for: .readWrite) == .limited
            else { return [] }
            return await withCheckedContinuation { continuation in
                PHPhotoLibrary.shared().presentLimitedLibraryPicker(from: controller) { identifiers in
                    continuation.resume(returning: identifiers)
                }
            }
        }
    }
#endif
