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

    package init(_ call: String, path: String, errno: Int32) {
        self.call = call
        self.path = path
        self.errno = errno
    }

    package var description: String { "\(call)(\(path)): \(String(cString: strerror(errno)))" }

    package var posix: POSIXError? { POSIXErrorCode(rawValue: errno).map { POSIXError($0) } }
}
