// PhotosUI's picker configuration (`PHPickerConfiguration`, iOS 14; the options below iOS 17).
// Scripts/apple-check.sh's SDK copy has no PhotosUI, so this file is not type-checked there; every
// name in it is PhotosUI's documented Swift API: `init(photoLibrary:)`, `selectionLimit`, `filter`,
// `selection`, and iOS 17's `mode`, `disabledCapabilities` and `edgesWithoutContentMargins`.
#if canImport(Photos) && canImport(PhotosUI) && canImport(UIKit) && os(iOS)
    import Photos
    import PhotosUI
    import UIKit

    extension PhotoLibrary {
        /// A configuration for PhotosUI's picker (`PHPickerViewController`) whose results name
        /// Photos assets (`PHPickerResult.assetIdentifier`, which a picker made without the photo
        /// library leaves `nil`), with iOS 17's layout options: `mode: .compact` shows one row to embed
        /// in a small part of a screen, `disabledCapabilities` hides search, the selection tray, the
        /// album list or the Cancel and Add buttons, and `edgesWithoutContentMargins` lets an embedded
        /// picker reach the edges. With `.continuous` selection the delegate hears every tap.
        ///
        /// ```swift
        /// let configuration = PhotoLibrary.pickerConfiguration(
        ///     mode: .compact, selection: .continuous, disabledCapabilities: [.search, .selectionActions])
        /// let picker = PHPickerViewController(configuration: configuration)
        /// // In picker(_:didFinishPicking:), put what the user chose into an album:
        /// let ids = results.compactMap(\.assetIdentifier)
        /// try await PhotoLibrary.system.addAssets(withIDs: ids, toAlbumTitled: "Touch Code Magazine")
        /// ```
        /// - Parameters:
        ///   - selectionLimit: How many assets the user may pick; 0 (default) for as many as Photos allows.
        ///   - filter: The kinds of assets shown (`.images`, `.videos`, …); `nil` for all.
        ///   - mode: `.default` (a grid) or `.compact` (one row).
        ///   - selection: `.default`, `.ordered`, `.continuous` or `.continuousAndOrdered`.
        ///   - disabledCapabilities: The parts of the picker to hide.
        ///   - edgesWithoutContentMargins: The edges where the content meets the picker's border.
        @available(iOS 17, *)
        public static func pickerConfiguration(
            selectionLimit: Int = 0, filter: PHPickerFilter? = nil, mode: PHPickerMode = .default,
            selection: PHPickerConfiguration.Selection = .default, disabledCapabilities: PHPickerCapabilities = [],
            edgesWithoutContentMargins: NSDirectionalRectEdge = []
        ) -> PHPickerConfiguration {
            var configuration = PHPickerConfiguration(photoLibrary: .shared())
            configuration.selectionLimit = selectionLimit
            configuration.filter = filter
            configuration.mode = mode
            configuration.selection = selection
            configuration.disabledCapabilities = disabledCapabilities
            configuration.edgesWithoutContentMargins = edgesWithoutContentMargins
            return configuration
        }
    }
#endif
