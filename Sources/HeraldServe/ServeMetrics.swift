#if Server
import CoreMetrics
import Foundation
public import Prometheus

/// The server's metrics, made through swift-metrics with a Prometheus factory of its own (not the
/// process-wide `MetricsSystem`, so tests and several servers in one process do not share counts).
/// `GET /metrics` renders `registry` in the Prometheus text format.
public struct ServeMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    let factory: PrometheusMetricsFactory

    /// Latency buckets for decisions and store calls: 50 µs to 1 s.
    static let latencyBuckets: [Duration] = [
        .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500),
        .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
        .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1),
    ]

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = Self.latencyBuckets
        self.factory = factory
    }

    /// `herald_decisions_total{policy, action, reason}`: one per decision returned (per channel for a
    /// `delivery: all` type).
    func decision(policy: String, action: String, reason: String) {
        Counter(label: "herald_decisions_total", dimensions: [("policy", policy), ("action", action), ("reason", reason)], factory: factory).increment()
    }

    /// `herald_decide_duration_seconds{policy, route}`: a decide, plan or reconcile request from its
    /// parsed body to its answer, store included.
    func decideDuration(policy: String, route: String, nanoseconds: Int64) {
        Timer(label: "herald_decide_duration_seconds", dimensions: [("policy", policy), ("route", route)], factory: factory).recordNanoseconds(nanoseconds)
    }

    /// `herald_store_duration_seconds{operation}`: one store call (a decide-and-record transaction,
    /// an event, a ledger read).
    func storeDuration(operation: String, nanoseconds: Int64) {
        Timer(label: "herald_store_duration_seconds", dimensions: [("operation", operation)], factory: factory).recordNanoseconds(nanoseconds)
    }

    /// `herald_store_errors_total{operation, kind}`: `unavailable` (answered 503) or `rejected`.
    func storeError(operation: String, kind: String) {
        Counter(label: "herald_store_errors_total", dimensions: [("operation", operation), ("kind", kind)], factory: factory).increment()
    }

    /// `herald_policy_reloads_total{policy, result}` and, for a failure,
    /// `herald_policy_reload_failures_total{policy}`.
    func reload(policy: String, ok: Bool) {
        Counter(label: "herald_policy_reloads_total", dimensions: [("policy", policy), ("result", ok ? "ok" : "failed")], factory: factory).increment()
        if !ok {
            Counter(label: "herald_policy_reload_failures_total", dimensions: [("policy", policy)], factory: factory).increment()
        }
    }

    /// `herald_policy_serving{policy}` (1 when a good compile is served) and
    /// `herald_policy_last_load_ok{policy}` (0 after a failed reload).
    func policyServing(policy: String, serving: Bool, ok: Bool) {
        Gauge(label: "herald_policy_serving", dimensions: [("policy", policy)], factory: factory).record(serving ? 1 : 0)
        Gauge(label: "herald_policy_last_load_ok", dimensions: [("policy", policy)], factory: factory).record(ok ? 1 : 0)
    }

    /// `herald_http_requests_total{route, status}`.
    func request(route: String, status: Int) {
        Counter(label: "herald_http_requests_total", dimensions: [("route", route), ("status", String(status))], factory: factory).increment()
    }

    /// The Prometheus text exposition.
    public func render() -> [UInt8] {
        registry.emitToBuffer()
    }
}
#endif
