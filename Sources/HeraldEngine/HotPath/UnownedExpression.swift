import HeraldPolicy

/// A compiled expression's evaluator held without a reference count, for the stages that
/// evaluate conditions on every decision.
///
/// Invariant: an `UnownedExpression` never outlives the `CompiledExpression` it came from.
/// Only the engine's tables make them (`TypeTable`, `CapPlan`, `EngineCore`), each from an
/// expression it keeps in its own stored properties, and stages read them through the table
/// they borrow for the decision. HeraldPolicy exposes the evaluator's storage at `package`
/// access only, so nothing outside this package can hold one.
struct UnownedExpression: @unchecked Sendable {
    private let storage: Unmanaged<CompiledExpression.Storage>

    /// The evaluator of `expression`, which the caller keeps alive as long as this value.
    init(keptAlongside expression: CompiledExpression) {
        storage = .passUnretained(expression.storage)
    }

    /// See `CompiledExpression.evaluate(_:)`.
    @inline(__always)
    func evaluate(_ context: any EvaluationContext) -> Value {
        storage._withUnsafeGuaranteedRef { $0.evaluation(context) }
    }

    /// See `CompiledExpression.evaluateBool(_:)`.
    @inline(__always)
    func evaluateBool(_ context: any EvaluationContext) -> Bool {
        storage._withUnsafeGuaranteedRef { $0.truth(context) }
    }
}
