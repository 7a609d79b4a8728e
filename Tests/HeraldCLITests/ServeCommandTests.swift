#if Server
@testable import herald
import Testing

@Suite struct ServeCommandTests {
    /// The connection limit leaves 64 descriptors, or half of a small limit, for everything else.
    @Test(arguments: [(UInt64(65_536), 65_472), (1_024, 960), (128, 64), (100, 50), (1, 1), (0, 1_000)])
    func connectionLimitLeavesRoomUnderTheDescriptorLimit(descriptors: UInt64, connections: Int) {
        #expect(Serve.defaultMaxConnections(descriptors: descriptors) == connections)
    }
}
#endif
