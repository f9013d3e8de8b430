/// Something that says whether a library may have changed since it was last asked, without
/// reading the library (the kernel's file change notifications): ``LibraryChangePoller`` reads the
/// library only when it says so.
package protocol LibraryWatch: AnyObject {
    /// Whether anything changed since the last call; never blocks.
    ///
    /// - Throws: when changes may have been missed (the poller then reads on a timer instead).
    func takeEvents() throws(SystemError) -> Bool
}
