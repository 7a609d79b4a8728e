@testable import HeraldPolicy
import Testing

@Suite struct ConcurrentlyTests {
    @Test func mapKeepsInputOrder() {
        let items = Array(0 ..< 200)
        #expect(Concurrently.map(items) { $0 * $0 } == items.map { $0 * $0 })
        #expect(Concurrently.map([Int]()) { $0 }.isEmpty)
        #expect(Concurrently.map([5]) { $0 + 1 } == [6])
    }
}
