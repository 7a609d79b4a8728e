#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The system's tz database: one TZif file per zone name under a directory
/// (`$TZDIR`, else `/usr/share/zoneinfo`), the files Python's `zoneinfo`, glibc and the
/// tz reference code read.
///
/// Zone names come from user data, so a name is read only when it is a plain relative path of
/// the tz database's characters, and only as a regular file of at most `TZif.maxSize` bytes.
/// Files in the directory that are not zones are refused by name: `Factory` (tz's
/// placeholder for "zone not yet set", `-00`), `localtime` (the machine's own setting),
/// `posixrules` (a zic default), and the `posix/` and `right/` copies of the database.
enum ZoneInfoDirectory {
    /// The directory read, fixed for the life of the process.
    static let path: String = {
        if let value = getenv("TZDIR"), case let path = String(cString: value), !path.isEmpty { return path }
        return "/usr/share/zoneinfo"
    }()

    /// Names in the directory that are not zones.
    static let excluded: Set<String> = ["Factory", "localtime", "posixrules"]
    static let excludedFolders: Set<String> = ["posix", "right"]

    /// Whether `identifier` can name a zone file: components of letters, digits, `_`, `+`
    /// and `-`, none empty, none starting with `-`, 1–128 bytes (so never `..`).
    static func isPlausible(_ identifier: String) -> Bool {
        let bytes = Array(identifier.utf8)
        guard (1 ... 128).contains(bytes.count), !excluded.contains(identifier) else { return false }
        var componentStart = true
        for b in bytes {
            switch b {
            case 0x2F:                                                   // "/"
                if componentStart { return false }
                componentStart = true
            case 0x2D:                                                   // "-"
                if componentStart { return false }
                componentStart = false
            case 0x30 ... 0x39, 0x41 ... 0x5A, 0x61 ... 0x7A, 0x5F, 0x2B:
                componentStart = false
            default:
                return false
            }
        }
        if componentStart { return false }
        let first = identifier.prefix { $0 != "/" }
        return !(excludedFolders.contains(String(first)) && identifier.contains("/"))
    }

    /// The bytes of the zone file `identifier`, or nil when the name is not plausible or no
    /// regular file of that name (following links) is there.
    static func contents(of identifier: String) -> [UInt8]? {
        guard isPlausible(identifier) else { return nil }
        // Non-blocking, so that even a FIFO planted in the directory cannot stall a request.
        let descriptor = open(path + "/" + identifier, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & 0o170000 == 0o100000,   // S_ISREG
              status.st_size > 0, status.st_size <= TZif.maxSize
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            filled += count
        }
        return bytes
    }

    /// The table of zone `identifier`, or nil when the directory has no readable TZif
    /// version 2+ file of that name.
    static func table(_ identifier: String) -> ZoneTable? {
        guard let bytes = contents(of: identifier), let tzif = TZif(bytes: bytes) else { return nil }
        return ZoneTable.build(identifier: identifier, tzif: tzif)
    }
}
