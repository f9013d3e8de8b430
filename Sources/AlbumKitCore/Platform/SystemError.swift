import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call: the call, the path it was about, and `errno`.
package struct SystemError: Error, Sendable, CustomStringConvertible {
    package let call: String
    package let path: String
    package let errno: Int32

    /// The process (or the system) has no file descriptor left: nothing is known about the file.
    package var isOutOfDescriptors: Bool { errno == EMFILE || errno == ENFILE }

    package init(_ call: String, path: String, errno: Int32) {
        self.call = call
        self.path = path
        self.errno = errno
    }

    package var description: String { "\(call)(\(path)): \(String(cString: strerror(errno)))" }

    package var posix: POSIXError? { POSIXErrorCode(rawValue: errno).map { POSIXError($0) } }
}
