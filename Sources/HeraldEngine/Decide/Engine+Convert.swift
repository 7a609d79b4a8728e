import HeraldPolicy
import HeraldSyntax

extension Engine {
    /// Converts the request's `state` and `user` by the declared schema into `slots` (indexed
    /// like `fields`), and returns the user's `id` ("" when absent or not a string). Wrong
    /// types and unknown fields are request errors; absent fields stay absent
    /// (`missing_data` later, and only when an expression needs them).
    /// - Complexity: one comparison of names per schema child per member present; paths are
    ///   built only for errors.
    @discardableResult
    func convertFields(state: JSON, user: JSON, into slots: SlotWriter, errors: inout [RequestError]) -> String {
        var reader = ValueReader()
        var userID = ""
        reader.object(state, node: core.stateSlots, into: slots, userID: nil)
        reader.object(user, node: core.userSlots, into: slots, userID: &userID)
        if !reader.errors.isEmpty { errors += reader.errors }
        return userID
    }

    /// `convertFields` into a new array indexed like `fields` (`.null`: absent).
    func fieldValues(state: JSON, user: JSON, errors: inout [RequestError]) -> [Value] {
        var values = [Value](repeating: .null, count: fields.count)
        values.withUnsafeMutableBufferPointer { buffer in
            _ = convertFields(state: state, user: user, into: SlotWriter(base: buffer.baseAddress!, count: buffer.count),
                              errors: &errors)
        }
        return values
    }

    /// Converts the request's `params` by the type's declared params into `slots` (indexed
    /// like `table.type.params`).
    func convertParams(_ params: JSON, table: TypeTable, into slots: SlotWriter, errors: inout [RequestError]) {
        // The table is borrowed (the engine holds it): reading its arrays counts no reference.
        withBorrowed(table) { table in
            guard case .object(let members) = params else { return }
            var reader = ValueReader()
            members.withUnsafeBufferPointer { members in
                for index in members.indices {
                    let key = members[index].key
                    guard let slot = table.paramSlot(key) else {
                        var message = "unknown param `\(key)` for type `\(table.type.id)`"
                        if let close = Suggestions.closest(to: key, in: table.paramNames) { message += "; did you mean `\(close)`?" }
                        reader.errors.append(RequestError(path: "params.\(key)", message: message))
                        continue
                    }
                    slots.set(slot, reader.convert(members[index].value, kind: table.paramKinds[slot],
                                                   as: table.paramTypes[slot], path: "params.\(key)"))
                }
            }
            if !reader.errors.isEmpty { errors += reader.errors }
        }
    }
}
