#if Server
import Foundation
import HeraldSQLite
import Hummingbird
import HummingbirdTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A SQLite ledger on a file system that fills up: decide answers 503 and `/readyz` says so
/// (its probe commits, since a write that is rolled back never reaches the disk), and both
/// recover by themselves once there is room again. The ledger lives on a 4 MB tmpfs mounted
/// for the test; skipped where mounting is not allowed (not root, or a container without
/// `CAP_SYS_ADMIN`).
@Suite struct ServeFullDiskTests {
    /// Mounts a tmpfs of `megabytes` on a new directory; nil where that is not allowed.
    static func mountTmpfs(megabytes: Int) throws -> String? {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/mount") else { return nil }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-full-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/usr/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", directory]
        mount.standardError = FileHandle.nullDevice
        try mount.run()
        mount.waitUntilExit()
        guard mount.terminationStatus == 0 else {
            try? FileManager.default.removeItem(atPath: directory)
            return nil
        }
        return directory
    }

    static func unmount(_ directory: String) {
        let umount = Process()
        umount.executableURL = URL(fileURLWithPath: "/usr/bin/umount")
        umount.arguments = ["--lazy", directory]
        try? umount.run()
        umount.waitUntilExit()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Writes zeros to `path` until the file system is full.
    static func fill(_ path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(descriptor) }
        let chunk = [UInt8](repeating: 0, count: 65_536)
        while chunk.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }

    @Test func aFullDiskIs503AndNotReadyUntilThereIsRoomAgain() async throws {
        guard let mountPoint = try Self.mountTmpfs(megabytes: 4) else { return }
        defer { Self.unmount(mountPoint) }
        let store = try SQLiteLedgerStore(path: mountPoint + "/ledger.db")
        let server = try ServeFixtures.server(store: store)
        try await ServeFixtures.test(server) { client in
            func decide(_ user: String) async throws -> (HTTPResponse.Status, String?) {
                try await client.execute(uri: "/v1/policies/handz/decide", method: .post, headers: ServeFixtures.jsonBody,
                                         body: ServeFixtures.body(try ServeFixtures.dueToday(user: user))) { response in
                    (response.status, try? ServeFixtures.errorCode(response))
                }
            }
            func ready() async throws -> HTTPResponse.Status {
                try await client.execute(uri: "/readyz", method: .get) { $0.status }
            }
            #expect(try await decide("before") == (.ok, nil))
            #expect(try await ready() == .ok)

            Self.fill(mountPoint + "/filler")
            // Each decide records new rows, so the log grows past the room left.
            var refused = 0
            for index in 0..<20 where try await decide("full-\(index)").0 == .serviceUnavailable { refused += 1 }
            #expect(refused > 0)
            #expect(try await decide("full-last") == (.serviceUnavailable, "store_unavailable"))
            #expect(try await ready() == .serviceUnavailable)

            try FileManager.default.removeItem(atPath: mountPoint + "/filler")
            #expect(try await ready() == .ok)
            #expect(try await decide("after") == (.ok, nil))
            let ledger = try await client.execute(uri: "/v1/users/after/ledger", method: .get) { $0.status }
            #expect(ledger == .ok)
        }
        await store.close()
    }
}
#endif
