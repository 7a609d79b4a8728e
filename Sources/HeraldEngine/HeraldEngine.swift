/// The interpreter: `decide`, `plan`, `flush` and `reconcile` over a compiled policy.
public enum HeraldEngine {}
