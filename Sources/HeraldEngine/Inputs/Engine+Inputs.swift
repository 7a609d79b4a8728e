public import HeraldPolicy
import HeraldSyntax

extension Engine {
    /// A user context from Swift values, checked against this engine's catalog.
    /// - Parameters:
    ///   - id: the user's id.
    ///   - prefs: the stated preferences (the catalog's own ones in `prefs.app`).
    ///   - permission: the OS permission as the device reports it.
    ///   - fields: declared `state` and `user` values by their full dotted path
    ///     (`"state.maintenance.dueToday": .int(3)`, `"user.tier": .string("pro")`).
    ///   - history: the user's ledger.
    /// - Throws: `RequestErrors`: an undeclared field or preference, a value of the wrong type,
    ///   a preference outside its `allowed` values, an unknown time zone, an id over
    ///   `UserContext.maxIDBytes`.
    public func userContext(id: String, prefs: PreferencesInput = PreferencesInput(), permission: Permission = .unknown,
                            fields: [String: Value] = [:], history: [HistoryEntry] = []) throws(RequestErrors) -> UserContext {
        var errors: [RequestError] = []
        if let problem = UserContext.idProblem(id) { errors.append(RequestError(path: "user.id", message: problem)) }
        let effective = effectivePreferences(prefs, errors: &errors)
        var values = [Value](repeating: .null, count: self.fields.count)
        for path in fields.keys.sorted() {
            let value = fields[path]!
            guard let slot = fieldSlots[path.split(separator: ".").map(String.init)] else {
                var message = "unknown field `\(path)`"
                let known = self.fields.map { $0.path.joined(separator: ".") }
                if let close = Suggestions.closest(to: path, in: known) { message += "; did you mean `\(close)`?" }
                errors.append(RequestError(path: path, message: message))
                continue
            }
            let type = self.fields[slot].type
            guard value.fits(type) else {
                errors.append(RequestError(path: path, message: "expected a value of type `\(type)`, got \(value.shown)"))
                continue
            }
            values[slot] = value
        }
        guard errors.isEmpty else { throw RequestErrors(errors) }
        return makeUserContext(id: id, prefs: prefs, permission: permission, history: history, fields: values, effective: effective)
    }

    /// A trigger from Swift values, checked against the type's declared params.
    /// - Throws: `RequestErrors`: an unknown type, an undeclared param, a value of the wrong type.
    public func trigger(_ type: String, at: Int, params: [String: Value] = [:], subject: String? = nil) throws(RequestErrors) -> Trigger {
        guard let schema = paramSchema(type) else { throw unknownType(type) }
        var errors: [RequestError] = []
        var values = [Value](repeating: .null, count: schema.names.count)
        for name in params.keys.sorted() {
            let value = params[name]!
            guard let slot = schema.slot(name) else {
                errors.append(schema.unknown(name, type: type))
                continue
            }
            guard value.fits(schema.types[slot]) else {
                errors.append(RequestError(path: "params.\(name)", message: "expected a value of type `\(schema.types[slot])`, got \(value.shown)"))
                continue
            }
            values[slot] = value
        }
        guard errors.isEmpty else { throw RequestErrors(errors) }
        return Trigger(type: type, at: at, subject: subject, params: values)
    }

    // MARK: For the wire format's readers (HeraldContract), which check as they convert

    /// A context over fields already converted by this engine's schema (`fieldCount` values).
    package func makeUserContext(id: String, prefs: PreferencesInput, permission: Permission, history: [HistoryEntry],
                                 fields: [Value], effective: EffectivePreferences) -> UserContext {
        precondition(fields.count == self.fields.count, "a user context's fields follow the engine's schema")
        return UserContext(id: id, prefs: prefs, permission: permission, history: history, fields: fields, effective: effective,
                           schema: ObjectIdentifier(core))
    }

    /// A trigger over params already converted by the type's declarations (`paramSchema(type)`).
    package func makeTrigger(type: String, at: Int, subject: String?, params: [Value]) -> Trigger {
        Trigger(type: type, at: at, subject: subject, params: params)
    }

    /// How many declared `state`/`user` fields there are (the length of a context's fields).
    package var fieldCount: Int { fields.count }

    /// The `state` and `user` schema trees, resolved to field slots.
    package var stateSchema: SchemaSlotNode { core.stateSlots }
    package var userSchema: SchemaSlotNode { core.userSlots }

    /// A type's declared params (nil: no such type).
    package func paramSchema(_ type: String) -> ParamSchema? {
        tables[type].map(ParamSchema.init(table:))
    }
}

/// A type's declared params as the request readers convert them: names and types in
/// declaration order (a trigger's param slots).
package struct ParamSchema {
    fileprivate let table: TypeTable

    package var names: [String] { table.paramNames }
    package var types: [ValueType] { table.paramTypes }

    /// The slot of param `name`, nil when the type declares none of that name.
    @inline(__always)
    package func slot(_ name: String) -> Int? { table.paramSlot(name) }

    /// The problem of an undeclared param, with the closest declared name.
    package func unknown(_ name: String, type: String) -> RequestError {
        var message = "unknown param `\(name)` for type `\(type)`"
        if let close = Suggestions.closest(to: name, in: table.paramNames) { message += "; did you mean `\(close)`?" }
        return RequestError(path: "params.\(name)", message: message)
    }
}
