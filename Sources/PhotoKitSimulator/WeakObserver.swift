#if !canImport(ObjectiveC)
    /// A change observer held without keeping it alive.
    // @unchecked Sendable: observers are not Sendable; the box is only read and written while
    // `PHPhotoLibrary.observers`' Mutex is held, and observers are called only on the library's
    // serial observer queue.
    struct WeakObserver: @unchecked Sendable {
        weak var observer: (any PHPhotoLibraryChangeObserver)?
    }

    /// The observers to call for one change, handed to the observer queue.
    // @unchecked Sendable: the list is made before the hand-off and only read, once, on the
    // library's serial observer queue.
    struct ObserverList: @unchecked Sendable {
        let observers: [any PHPhotoLibraryChangeObserver]
    }
#endif
