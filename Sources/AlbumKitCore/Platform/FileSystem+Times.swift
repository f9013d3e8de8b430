import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileSystem {
    /// Sets an open file's modification (and access) time to `date`.
    package static func setModificationTime(_ file: Descriptor, to date: Date) throws(SystemError) {
        try setModificationTime(file, to: FileStatus.Time(date))
    }

}
