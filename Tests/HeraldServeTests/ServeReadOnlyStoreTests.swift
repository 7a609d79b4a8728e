#if Server
import Foundation
import HeraldSQLite
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A SQLite file the server may not write is refused at start with `H0706`, rather than served
/// with every decide answered 503 until a restart (SQLite opens such a file read-only, and the
/// connection stays read-only after the permissions are fixed). Run as `nobody` through
/// `setpriv`, since root may write any file; skipped where that cannot be done.
@Suite struct ServeReadOnlyStoreTests {
    /// `leftLog`: the store was not closed (a crash), so its `-wal` and `-shm` stay beside the
    /// file, writable: SQLite then opens the file read-only without an error.
    @Test(arguments: [false, true])
    func aReadOnlyLedgerFileIsRefusedAtStart(leftLog: Bool) async throws {
        let binary = try #require(ServeProcess.heraldBinary, "the herald binary is built beside the tests")
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return }
        // `nobody` must be able to run the binary where it was built (not under /root, say).
        let probe = try ServeProcess(binary: "/usr/bin/setpriv", arguments: ["--reuid=65534", "--regid=65534", "--clear-groups", binary, "--version"])
        probe.process.waitUntilExit()
        guard probe.terminationStatus == 0 else { return }
        let directory = try ServeFixtures.copyOfHandz()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        chmod(directory, 0o777)
        let database = directory + "/ledger.db"
        let store = try SQLiteLedgerStore(path: database)
        if leftLog {
            _ = try await store.entries(user: "u")
        } else {
            await store.close()
        }
        for suffix in ["", "-wal", "-shm"] { chown(database + suffix, 65534, 65534) }
        chmod(database, 0o444)
        let server = try ServeProcess(binary: "/usr/bin/setpriv", arguments: [
            "--reuid=65534", "--regid=65534", "--clear-groups",
            binary, "serve", directory + "/policies", "--store", "sqlite:" + database, "--listen", "127.0.0.1:0",
        ])
        defer { server.kill() }
        let exited = try await ServeProcess.poll(seconds: 60) { !server.isRunning }
        #expect(exited)
        #expect(server.terminationStatus == 64)
        #expect(server.stderr.contains("H0706"), "\(server.stderr.suffix(500))")
        #expect(server.stderr.contains("readonly"))
        _ = store
    }
}
#endif
