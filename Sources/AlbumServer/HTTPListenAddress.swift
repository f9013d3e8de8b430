#if os(Linux)
    import AlbumKitCore
    import Foundation

    /// Where the server listens: `ADDRESS:PORT`, `[IPv6]:PORT`, or a port alone (loopback).
    ///
    /// ```swift
    /// let lan = try HTTPListenAddress(parsing: "0.0.0.0:8080")
    /// let loopback = try HTTPListenAddress(parsing: "8080")   // 127.0.0.1:8080
    /// ```
    package struct HTTPListenAddress: Sendable, CustomStringConvertible {
        package let host: String
        package let port: UInt16
        package let isIPv6: Bool

        /// - Throws: `.invalidArgument` naming what is wrong with `text`.
        package init(parsing text: String) throws {
            func refuse(_ why: String) -> AlbumError {
                AlbumError(.invalidArgument, "--listen \(text): \(why) (expected ADDRESS:PORT, [IPv6]:PORT or PORT).")
            }
            var host = "127.0.0.1"
            var portText = text
            if text.hasPrefix("[") {
                guard let close = text.firstIndex(of: "]") else { throw refuse("no closing ]") }
                host = String(text[text.index(after: text.startIndex)..<close])
                let rest = text[text.index(after: close)...]
                guard rest.hasPrefix(":") else { throw refuse("no port after the address") }
                portText = String(rest.dropFirst())
            } else if let colon = text.lastIndex(of: ":") {
                host = String(text[..<colon])
                portText = String(text[text.index(after: colon)...])
            }
            guard let port = UInt16(portText) else { throw refuse("the port is not a number from 0 to 65535") }
            var v4 = in_addr()
            var v6 = in6_addr()
            if inet_pton(AF_INET, host, &v4) == 1 {
                isIPv6 = false
            } else if inet_pton(AF_INET6, host, &v6) == 1 {
                isIPv6 = true
            } else if host == "localhost" {
                host = "127.0.0.1"
                isIPv6 = false
            } else {
                throw refuse("\(host) is not an IP address")
            }
            self.host = host
            self.port = port
        }

        package var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

        /// Whether it listens only on this machine.
        package var isLoopback: Bool { host.hasPrefix("127.") || host == "::1" }

        /// The address as a `sockaddr`, for the length of `body`.
        func withSocketAddress<T>(_ body: (UnsafeRawPointer) -> T) -> T {
            if isIPv6 {
                var address = sockaddr_in6()
                address.sin6_family = sa_family_t(AF_INET6)
                address.sin6_port = port.bigEndian
                _ = inet_pton(AF_INET6, host, &address.sin6_addr)
                return withUnsafeBytes(of: &address) { body($0.baseAddress!) }
            }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            _ = inet_pton(AF_INET, host, &address.sin_addr)
            return withUnsafeBytes(of: &address) { body($0.baseAddress!) }
        }
    }
#endif
