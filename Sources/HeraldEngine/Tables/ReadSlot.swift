/// Where a name an expression or rule reads lives in a request: a schema slot, a param
/// slot, or (for built-ins) its path.
enum ReadSlot: Sendable {
    case field(Int)
    case param(Int)
    case path([String])

    init(path: [String], fieldSlots: [[String]: Int], paramSlots: [String: Int]) {
        if path.first == "params", path.count == 2, let slot = paramSlots[path[1]] {
            self = .param(slot)
        } else if path.first == "state" || path.first == "user", let slot = fieldSlots[path] {
            self = .field(slot)
        } else {
            self = .path(path)
        }
    }
}
