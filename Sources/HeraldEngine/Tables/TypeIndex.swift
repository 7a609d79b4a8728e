/// Type id → table, for the one lookup every decision makes: open addressing over an
/// unseeded multiply-mix hash of the id's UTF-8 bytes, which for a short id costs a fraction
/// of the standard library's seeded hash. Keys are the catalog's own type ids (not request
/// data), so an unseeded hash is safe here.
struct TypeIndex: Sendable {
    private let names: [String?]
    private let tables: [TypeTable?]
    private let mask: Int

    init(_ tables: [String: TypeTable]) {
        var size = 16
        while size < tables.count * 2 { size *= 2 }
        var names = [String?](repeating: nil, count: size)
        var values = [TypeTable?](repeating: nil, count: size)
        mask = size - 1
        for (name, table) in tables {
            var index = Self.hash(name) & mask
            while names[index] != nil { index = (index &+ 1) & mask }
            names[index] = name
            values[index] = table
        }
        self.names = names
        self.tables = values
    }

    subscript(name: String) -> TypeTable? {
        var index = Self.hash(name) & mask
        while let present = names[index] {
            if present == name { return tables[index] }
            index = (index &+ 1) & mask
        }
        return nil
    }

    /// An unseeded hash of the name's UTF-8 bytes, eight bytes a multiply (`KeyTable`'s mix
    /// with a fixed seed): a byte-at-a-time hash is a chain of dependent multiplies, which
    /// for a 17-byte type id cost more than the rest of the lookup.
    static func hash(_ name: String) -> Int {
        Int(truncatingIfNeeded: KeyTable.hash(name, seed: 0x243F_6A88_85A3_08D3))
    }
}
