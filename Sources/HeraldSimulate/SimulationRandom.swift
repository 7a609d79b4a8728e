/// The simulation's own pseudo-random generator: xoshiro256** seeded through SplitMix64, so the
/// same scenario and seed give the same numbers on every platform and Swift version (the
/// system generator is neither seedable nor stable).
///
/// Each user draws from its own stream (`SimulationRandom(seed:stream:)`), so users can be run
/// in any order, on any number of threads, and give the same result.
public struct SimulationRandom: RandomNumberGenerator, Sendable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    /// A generator for `stream` (a user's index) of the run seeded with `seed`.
    public init(seed: UInt64, stream: UInt64 = 0) {
        var state = seed ^ (stream &* 0xD1B5_4A32_D192_ED03)
        func splitMix() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = splitMix()
        s1 = splitMix()
        s2 = splitMix()
        s3 = splitMix()
    }

    public mutating func next() -> UInt64 {
        let result = rotate(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotate(s3, 45)
        return result
    }

    private func rotate(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }

    /// A number in `[0, 1)` with 53 random bits.
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// An integer in `range` (empty ranges give their lower bound).
    public mutating func int(in range: Range<Int>) -> Int {
        guard range.count > 1 else { return range.lowerBound }
        return range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { p >= 1 || (p > 0 && unit() < p) }

    /// A Poisson-distributed count with mean `lambda` (Knuth's method, for the small rates of a
    /// day's triggers; rates above 30 use a rounded normal approximation).
    public mutating func poisson(_ lambda: Double) -> Int {
        guard lambda > 0 else { return 0 }
        if lambda > 30 {
            let u1 = max(unit(), 0x1.0p-53), u2 = unit()
            let normal = (-2 * _log(u1)).squareRoot() * _cos(2 * Double.pi * u2)
            return max(0, Int((lambda + normal * lambda.squareRoot()).rounded()))
        }
        let limit = _exp(-lambda)
        var k = 0
        var p = unit()
        while p > limit {
            k += 1
            p *= unit()
        }
        return k
    }
}

// Elementary functions without Foundation (the values only need to be the same everywhere
// the same libm runs; the simulation rounds what it draws from them to whole seconds/counts).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@inline(__always) func _exp(_ x: Double) -> Double { exp(x) }
@inline(__always) func _log(_ x: Double) -> Double { log(x) }
@inline(__always) func _cos(_ x: Double) -> Double { cos(x) }
