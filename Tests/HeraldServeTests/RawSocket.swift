#if Server
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP connection to 127.0.0.1 for speaking HTTP/1.1 by hand (a request can be left
/// half sent), with a 60 s receive timeout so a test fails rather than hangs.
final class RawSocket {
    let descriptor: Int32

    /// - Throws: when the connection is refused.
    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ServeProcessError(message: "socket() failed") }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(descriptor)
            throw ServeProcessError(message: "connection refused")
        }
    }

    deinit { close(descriptor) }

    func send(_ text: String) throws { try send(bytes: Array(text.utf8)) }

    func send(bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw ServeProcessError(message: "send failed: errno \(errno)") }
            offset += sent
        }
    }

    /// What arrives within `seconds` (until the peer closes or stops sending), as text.
    func read(within seconds: Double) -> String {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            var descriptor = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
            let left = deadline - ContinuousClock.now
            let milliseconds = Int32(max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            guard poll(&descriptor, 1, milliseconds) > 0 else { break }
            let count = recv(self.descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            data += buffer[..<count]
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// One response: its status and body (read by `Content-Length`).
    func readResponse() throws -> (status: Int, body: String) {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let text = String(decoding: data, as: UTF8.self)
            if let headEnd = text.range(of: "\r\n\r\n") {
                let head = text[..<headEnd.lowerBound]
                let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                let bodyBytes = Array(text[headEnd.upperBound...].utf8)
                if bodyBytes.count >= length {
                    let status = Int(head.split(separator: " ")[1]) ?? 0
                    return (status, String(decoding: bodyBytes.prefix(length), as: UTF8.self))
                }
            }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { throw ServeProcessError(message: "connection closed or timed out after \(data.count) bytes: \(text)") }
            data += buffer[..<count]
        }
    }
}
#endif
