#if !canImport(ObjectiveC)
    import Foundation

    /// An object Photos tells about changes to the library, registered with
    /// `PHPhotoLibrary.register(_:)`.
    ///
    /// The simulator calls it after every committed change block and every scripted user action,
    /// on the library's serial observer queue ("an arbitrary serial queue", as Photos documents).
    public protocol PHPhotoLibraryChangeObserver: NSObjectProtocol {
        /// The library changed; ask `changeInstance` for the details of your fetch results.
        func photoLibraryDidChange(_ changeInstance: PHChange)
    }
#endif
