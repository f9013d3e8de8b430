import AlbumKitCore

/// A folder library's changes: the kernel tells of every file and folder created, removed, renamed
/// or written under the library's folder (inotify, ``DirectoryWatch``), and the library is read
/// and compared only then. Where inotify is not available — another system, a network or FUSE file
/// system whose other machines' changes it never sees, too many folders for the watch limit — the
/// library is read every `interval` instead.
extension FolderBackend: ChangeFeed {
    package func changes(polling interval: Duration) -> AsyncThrowingStream<LibraryChange, any Error> {
        changes(polling: interval, started: {})
    }

    /// `started` once the poller has read its starting point.
    package func changes(polling interval: Duration, started: @escaping @Sendable () -> Void)
        -> AsyncThrowingStream<LibraryChange, any Error>
    {
        #if os(Linux) || os(Android)
            let root = self.root.path
            return LibraryChangePoller(backend: self, interval: interval) { try DirectoryWatch(root: root) }.changes(
                started: started)
        #else
            return LibraryChangePoller(backend: self, interval: interval).changes(started: started)
        #endif
    }
}
