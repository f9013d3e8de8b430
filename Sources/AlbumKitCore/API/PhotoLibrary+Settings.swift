#if canImport(UIKit) && os(iOS)
    import Foundation
    import UIKit

    extension PhotoLibrary {
        /// Opens the app's page in Settings, where the user changes photo access (show it when the
        /// access is ``PhotoLibraryAccess/denied``). Returns whether Settings opened.
        ///
        /// ```swift
        /// Button("Open Settings") { Task { await PhotoLibrary.openSettings() } }
        /// ```
        @MainActor
        @available(iOSApplicationExtension, unavailable)
        @discardableResult
        public static func openSettings() async -> Bool {
            guard let url = URL(string: UIApplication.openSettingsURLString) else { return false }
            return await UIApplication.shared.open(url)
        }
    }
#elseif canImport(AppKit) && os(macOS)
    import AppKit
    import Foundation

    extension PhotoLibrary {
        /// Opens System Settings at Privacy & Security › Photos, where the user changes photo
        /// access (show it when the access is ``PhotoLibraryAccess/denied``). Returns whether it opened.
        ///
        /// ```swift
        /// Button("Open System Settings") { Task { await PhotoLibrary.openSettings() } }
        /// ```
        @MainActor
        @discardableResult
        public static func openSettings() async -> Bool {
            guard let url = URL(string: "x-apple.systempreferences:com.apple.preference.security?Privacy_Photos")
            else { return false }
            return NSWorkspace.shared.open(url)
        }
    }
#endif
