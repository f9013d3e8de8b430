import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileSystem {
    /// Gives the file `name` of `directory` a second name `newName` in `target` (a hard link);
    /// never replaces a file.
    ///
    /// - Throws: `EEXIST` when the name is taken; `EXDEV` across file systems; `EPERM`/`EMLINK`
    ///   where the file system has no (more) links.
    package static func link(
        _ name: String, in directory: Descriptor, as newName: String, in target: Descriptor
    ) throws(SystemError) {
        let path = target.path + "/" + newName
        if let code = FaultInjector.check(.publish, path) { throw SystemError("link", path: path, errno: code) }
        guard linkat(directory.fd, name, target.fd, newName, 0) == 0 else {
            throw SystemError("link", path: path, errno: errno)
        }
    }

    /// How many names the file `name` of `directory` has (1 when it cannot be read).
    package static func linkCount(of name: String, in directory: Descriptor) -> Int {
        status(of: name, in: directory).map { Int($0.st_nlink) } ?? 1
    }
}
