import HeraldSyntax

/// A template compiled to a flat program, once per bundle: literal text as one UTF-8 byte
/// array, and plain-data ops that refer to placeholders by index (into `placeholders`) and to
/// branch bodies by range. Rendering walks the ops without copying a string or counting a
/// reference for any part, and looks values up by index, which a caller resolves once
/// (the engine binds each index to a param slot or a built-in).
struct TemplateProgram: Sendable {
    enum Op: Sendable {
        /// `bytes[start ..< start + count]`.
        case text(start: Int32, count: Int32)
        /// The value of placeholder `index`.
        case value(Int32)
        /// `#` in a plural branch.
        case number
        /// Placeholder `index`, choosing among `branches[first ..< first + count]`.
        case plural(Int32, first: Int32, count: Int32)
        case select(Int32, first: Int32, count: Int32)
        /// Placeholder `index` in a time or date style (`TemplateFormat`).
        case format(Int32, TemplateFormat)
    }

    struct Branch: Sendable {
        /// Index into `selectors`.
        var selector: Int32
        var exact: Int?
        var isOne: Bool
        var isOther: Bool
        /// `ops[start ..< start + count]`.
        var start: Int32
        var count: Int32
    }

    private(set) var bytes: [UInt8] = []
    private(set) var ops: [Op] = []
    private(set) var branches: [Branch] = []
    private(set) var selectors: [String] = []
    /// The top-level ops: `ops[0 ..< rootCount]`.
    private(set) var rootCount: Int32 = 0

    /// Whether an op formats a time or a date.
    var hasFormat: Bool { ops.contains { if case .format = $0 { true } else { false } } }

    init(_ parts: [TemplatePart], placeholders: [String]) {
        rootCount = Int32(parts.count)
        emit(parts, placeholders: placeholders)
    }

    /// Appends `parts` as contiguous ops, then their branches' bodies after them (each body
    /// contiguous too), and returns where the parts' ops start.
    @discardableResult
    private mutating func emit(_ parts: [TemplatePart], placeholders: [String]) -> Int32 {
        let start = ops.count
        ops.append(contentsOf: repeatElement(.number, count: parts.count))
        for (offset, part) in parts.enumerated() {
            let index = start + offset
            switch part {
            case .text(let text):
                let at = Int32(bytes.count)
                bytes.append(contentsOf: text.utf8)
                ops[index] = .text(start: at, count: Int32(bytes.count) - at)
            case .value(let name):
                ops[index] = .value(Self.index(of: name, in: placeholders))
            case .number:
                ops[index] = .number
            case .format(let name, let style):
                ops[index] = .format(Self.index(of: name, in: placeholders), style)
            case .plural(let name, let list), .select(let name, let list):
                let first = Int32(branches.count)
                branches.append(contentsOf: list.map { branch in
                    Branch(selector: 0, exact: branch.exact, isOne: branch.selector == "one",
                           isOther: branch.selector == "other", start: 0, count: Int32(branch.parts.count))
                })
                for (b, branch) in list.enumerated() {
                    let at = Int(first) + b
                    branches[at].selector = Int32(selectors.count)
                    selectors.append(branch.selector)
                    branches[at].start = emit(branch.parts, placeholders: placeholders)
                }
                let key = Self.index(of: name, in: placeholders)
                if case .plural = part {
                    ops[index] = .plural(key, first: first, count: Int32(list.count))
                } else {
                    ops[index] = .select(key, first: first, count: Int32(list.count))
                }
            }
        }
        return Int32(start)
    }

    private static func index(of name: String, in placeholders: [String]) -> Int32 {
        Int32(placeholders.firstIndex(of: name) ?? -1)
    }

    /// Renders the program into `sink`; `value` answers by placeholder index (nil: missing,
    /// rendered as empty text), `offset` the user's UTC offset at an instant (asked only by
    /// `{x, time}` and `{x, date}` of an instant).
    func render<Sink: ByteSink>(into sink: inout Sink, value: (Int) -> Value?, offset: (Int) -> Int) {
        bytes.withUnsafeBufferPointer { bytes in
            ops.withUnsafeBufferPointer { ops in
                branches.withUnsafeBufferPointer { branches in
                    let walker = Walker(bytes: bytes, ops: ops, branches: branches, selectors: selectors)
                    walker.render(0 ..< Int(rootCount), number: nil, into: &sink, value: value, offset: offset)
                }
            }
        }
    }

    private struct Walker {
        let bytes: UnsafeBufferPointer<UInt8>
        let ops: UnsafeBufferPointer<Op>
        let branches: UnsafeBufferPointer<Branch>
        let selectors: [String]

        func render<Sink: ByteSink>(_ range: Range<Int>, number: Int?, into sink: inout Sink, value: (Int) -> Value?, offset: (Int) -> Int) {
            for index in range {
                switch ops[index] {
                case .text(let start, let count):
                    sink.append(UnsafeBufferPointer(rebasing: bytes[Int(start) ..< Int(start + count)]))
                case .number:
                    if let number { sink.append(number) }
                case .value(let key):
                    append(key < 0 ? nil : value(Int(key)), to: &sink)
                case .format(let key, let style):
                    if key >= 0, var text = style.text(of: value(Int(key)), offset: offset) {
                        text.withUTF8 { sink.append($0) }
                    }
                case .plural(let key, let first, let count):
                    let all = Int(first) ..< Int(first + count)
                    guard key >= 0, case .int(let n)? = value(Int(key)) else {
                        if let other = all.first(where: { branches[$0].isOther }) {
                            render(body(other), number: nil, into: &sink, value: value, offset: offset)
                        }
                        continue
                    }
                    let chosen = all.first { branches[$0].exact == n }
                        ?? (n == 1 ? all.first { branches[$0].isOne } : nil)
                        ?? all.first { branches[$0].isOther }
                    if let chosen { render(body(chosen), number: n, into: &sink, value: value, offset: offset) }
                case .select(let key, let first, let count):
                    let all = Int(first) ..< Int(first + count)
                    let text = TemplatePart.text(of: key < 0 ? nil : value(Int(key)))
                    let chosen = all.first { !branches[$0].isOther && selectors[Int(branches[$0].selector)] == text }
                        ?? all.first { branches[$0].isOther }
                    if let chosen { render(body(chosen), number: number, into: &sink, value: value, offset: offset) }
                }
            }
        }

        private func body(_ branch: Int) -> Range<Int> {
            Int(branches[branch].start) ..< Int(branches[branch].start + branches[branch].count)
        }

        /// A value as copy shows it (`TemplatePart.text(of:)`), strings and integers written
        /// straight into the sink.
        private func append<Sink: ByteSink>(_ value: Value?, to sink: inout Sink) {
            switch value {
            case .string(let s)?:
                if let done: Void = s.utf8.withContiguousStorageIfAvailable({ sink.append($0) }) { return done }
                var copy = s
                copy.withUTF8 { sink.append($0) }
            case .int(let n)?:
                sink.append(n)
            default:
                var text = TemplatePart.text(of: value)
                text.withUTF8 { sink.append($0) }
            }
        }
    }
}

/// Where rendered UTF-8 goes.
protocol ByteSink {
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>)
    mutating func append(_ number: Int)
}

/// A fixed buffer (on the stack, while rendering): most copy fits, and then the only
/// allocation is the string. `overflowed` when it did not fit.
struct FixedSink: ByteSink {
    let base: UnsafeMutableBufferPointer<UInt8>
    var count = 0
    var overflowed = false

    init(_ base: UnsafeMutableBufferPointer<UInt8>) { self.base = base }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !overflowed, bytes.count <= base.count - count else {
            overflowed = true
            return
        }
        if let from = bytes.baseAddress { (base.baseAddress! + count).initialize(from: from, count: bytes.count) }
        count += bytes.count
    }

    mutating func append(_ number: Int) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: every Int in decimal
        withUnsafeMutableBytes(of: &digits) { raw in
            let length = Self.decimal(number, into: raw)
            append(UnsafeBufferPointer(rebasing: UnsafeRawBufferPointer(raw).bindMemory(to: UInt8.self)[..<length]))
        }
    }

    /// Writes `n` in decimal at the start of `out` (24 bytes hold any `Int`); returns the length.
    static func decimal(_ n: Int, into out: UnsafeMutableRawBufferPointer) -> Int {
        var magnitude = n.magnitude
        var end = out.count
        repeat {
            end -= 1
            out[end] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        if n < 0 {
            end -= 1
            out[end] = UInt8(ascii: "-")
        }
        let length = out.count - end
        for i in 0 ..< length { out[i] = out[end + i] }
        return length
    }
}

extension TextBuffer: ByteSink {}
