/// Runs `body` with `object` passed as a borrowed reference (no count): the closure may not
/// keep it. The caller holds `object` for the call (an argument lives until its call
/// returns), which is the invariant that makes the unretained reference safe; it is how the
/// stages read what a table owns (a channel choice, a batch plan, a schema child) without
/// counting references.
@inline(__always)
func withBorrowed<Object: AnyObject, R>(_ object: Object, _ body: (Object) -> R) -> R {
    Unmanaged.passUnretained(object)._withUnsafeGuaranteedRef(body)
}
