// Fuzz target: the strict YAML reader (HeraldSyntax `YAMLReader.read`) and the diagnostic
// renderer, on any bytes. See docs/fuzzing.md.
import FuzzSupport
import HeraldSyntax

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    // Seeds: every YAML file of catalog/, policies/ and Tests/Fixtures (the yaml-test-suite too).
    Seeds.writeIfRequested { Seeds.yamlFiles().map(Seeds.read) }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let file = SourceFile(path: "fuzz.yaml", bytes: Fuzz.bytes(data, size))
    let limits = YAMLLimits.standard
    let result = YAMLReader.read(file, limits: limits)

    if let root = result.root { checkTree(root, in: file, limits: limits) }
    SpanChecks.check(result.diagnostics, in: [file.path: file])
    // No document is always said: an error, or the empty-file warning.
    if result.root == nil, result.diagnostics.isEmpty { Fuzz.fail("no root and no diagnostic") }

    // What `herald validate` prints: caret snippets over the file, and the machine formats.
    let sources = [file.path: file]
    for format in [DiagnosticRenderer.Format.text, .github] {
        _ = DiagnosticRenderer(format: format, color: false).render(result.diagnostics.items, sources: sources)
    }
    return 0
}

/// Every node and key lies inside the file and inside its parent; the tree respects the
/// limits; every scalar's value positions stay inside the file.
func checkTree(_ root: YAMLNode, in file: SourceFile, limits: YAMLLimits) {
    var stack: [(node: YAMLNode, depth: Int, parent: SourceSpan?)] = [(root, 0, nil)]
    var nodes = 0
    while let (node, depth, parent) = stack.popLast() {
        nodes += 1
        SpanChecks.check(node.span, in: file, "node at depth \(depth)")
        if let parent, node.span.start.offset < parent.start.offset || node.span.end.offset > parent.end.offset {
            Fuzz.fail("node \(node.span.start.offset)..<\(node.span.end.offset) outside its parent \(parent.start.offset)..<\(parent.end.offset)")
        }
        switch node.kind {
        case .scalar(let scalar):
            checkPositions(scalar, in: file)
        case .sequence(let items):
            if depth + 1 > limits.maxDepth { Fuzz.fail("a list at depth \(depth + 1), deeper than the limit \(limits.maxDepth)") }
            for item in items { stack.append((item, depth + 1, node.span)) }
        case .mapping(let pairs):
            if depth + 1 > limits.maxDepth { Fuzz.fail("a mapping at depth \(depth + 1), deeper than the limit \(limits.maxDepth)") }
            var keys = Set<String>()
            for pair in pairs {
                SpanChecks.check(pair.key.span, in: file, "key `\(pair.key.value)`")
                if pair.key.span.start.offset < node.span.start.offset || pair.key.span.end.offset > node.span.end.offset {
                    Fuzz.fail("key `\(pair.key.value)` outside its mapping")
                }
                // Duplicate keys are rejected: the tree never holds two.
                if !keys.insert(pair.key.value).inserted { Fuzz.fail("duplicate key `\(pair.key.value)` in the tree") }
                stack.append((pair.value, depth + 1, node.span))
            }
        }
    }
    if nodes > limits.maxNodes { Fuzz.fail("\(nodes) nodes, more than the limit \(limits.maxNodes)") }
}

/// `YAMLScalar.location(ofValueOffset:)` for every offset of the value (and one past it, the
/// end of a value range) lies inside the file. Within a run between anchors the offset grows
/// by one per value byte, so checking each anchor and each run's last byte covers them all.
/// Block scalars (`|`, `>`) included (docs/fuzzing.md, *Past findings*).
func checkPositions(_ scalar: YAMLScalar, in file: SourceFile) {
    let anchors = scalar.positions.anchors
    guard !anchors.isEmpty else { Fuzz.fail("a scalar with no position anchor") }
    let length = scalar.value.utf8.count
    var offsets: [Int] = [length]
    for (i, anchor) in anchors.enumerated() {
        if i > 0, anchor.valueOffset < anchors[i - 1].valueOffset {
            Fuzz.fail("scalar position anchors out of order: \(anchors.map(\.valueOffset))")
        }
        offsets.append(anchor.valueOffset)
        if i + 1 < anchors.count, anchors[i + 1].valueOffset > anchor.valueOffset { offsets.append(anchors[i + 1].valueOffset - 1) }
    }
    for offset in offsets where offset >= 0 && offset <= length {
        let location = scalar.location(ofValueOffset: offset)
        if location.offset < 0 || location.offset > file.bytes.count || location.line < 1 || location.line > file.lineStarts.count {
            Fuzz.fail("\(scalar.style) scalar `\(scalar.value.prefix(40))`: value offset \(offset) of \(length) is at \(location) (byte \(location.offset)), outside the file's \(file.bytes.count) bytes")
        }
    }
}
