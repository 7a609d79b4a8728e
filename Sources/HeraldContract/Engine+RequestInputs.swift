public import HeraldEngine
import HeraldPolicy
import HeraldSyntax

/// The one conversion of a request's JSON into the engine's typed inputs, against the policy's
/// schema: `state` and `user` by the catalog's declared fields, `params` by the type's, the
/// catalog's own preferences by their declared types. Every problem is collected, with its path.
extension Engine {
    /// The user context of a request's user half.
    /// - Returns: the context, or every problem with the user's fields and preferences.
    public func userContext(_ request: UserRequest) -> Result<UserContext, RequestErrors> {
        var errors = RequestErrors()
        let context = userContext(request, errors: &errors)
        return errors.isEmpty ? .success(context) : .failure(errors)
    }

    /// The typed inputs of a decide request.
    /// - Returns: the user context and the trigger, or every problem (an unknown type alone).
    public func inputs(_ request: DecisionRequest) -> Result<(user: UserContext, trigger: Trigger), RequestErrors> {
        guard let schema = paramSchema(request.type) else { return .failure(unknownType(request.type)) }
        var errors = RequestErrors()
        let user = userContext(request.userRequest, errors: &errors)
        let trigger = trigger(request.type, schema: schema, at: request.at, params: request.params, subject: request.subject, errors: &errors)
        guard errors.isEmpty else { return .failure(errors) }
        return .success((user, trigger))
    }

    /// The trigger of a candidate (a plan's, a scenario's), its params converted by the type's
    /// declarations.
    /// - Returns: the trigger, or every problem with it.
    public func trigger(_ candidate: CandidateRequest) -> Result<Trigger, RequestErrors> {
        var errors = RequestErrors()
        let made = trigger(candidate.type, at: candidate.at, params: candidate.params, subject: candidate.subject, errors: &errors)
        guard errors.isEmpty, let made else { return .failure(errors) }
        return .success(made)
    }

    /// `userContext(_:)`, adding the problems to `errors` (the context is then not to be used).
    func userContext(_ request: UserRequest, errors: inout RequestErrors) -> UserContext {
        var prefs = request.prefs
        for name in request.appPrefs.keys.sorted() {
            let json = request.appPrefs[name]!
            guard let type = appPreferenceType(name) else {
                errors.append(unknownPreference(name, builtIn: Self.builtInPreferences))
                continue
            }
            guard let value = Self.preferenceValue(json, of: type) else {
                errors.append(RequestError(path: "prefs." + name,
                                           message: "expected \(Self.describePreference(type)), got \(RequestReader.show(json))"))
                continue
            }
            prefs.app[name] = value
        }
        var problems: [RequestError] = []
        let effective = effectivePreferences(prefs, errors: &problems)
        for problem in problems { errors.append(problem) }
        var fields = [Value](repeating: .null, count: fieldCount)
        var reader = ValueReader()
        reader.object(request.state, node: stateSchema, into: &fields)
        let id = reader.object(request.user, node: userSchema, into: &fields, readingID: true) ?? ""
        errors.append(contentsOf: reader.errors)
        return makeUserContext(id: id, prefs: prefs, permission: request.permission, history: request.history,
                               fields: fields, effective: effective)
    }

    /// A trigger of `type` (which must exist) with its params converted, adding the problems to
    /// `errors` (nil: the type is unknown).
    func trigger(_ type: String, at: Int, params: JSON, subject: String?, errors: inout RequestErrors) -> Trigger? {
        guard let schema = paramSchema(type) else {
            errors.append(contentsOf: unknownType(type))
            return nil
        }
        return trigger(type, schema: schema, at: at, params: params, subject: subject, errors: &errors)
    }

    /// A trigger of `type`, whose params `schema` declares.
    private func trigger(_ type: String, schema: ParamSchema, at: Int, params: JSON, subject: String?,
                         errors: inout RequestErrors) -> Trigger {
        var values = [Value](repeating: .null, count: schema.names.count)
        if case .object(let members) = params {
            var reader = ValueReader()
            for member in members {
                guard let slot = schema.slot(member.key) else {
                    reader.errors.append(schema.unknown(member.key, type: type))
                    continue
                }
                values[slot] = reader.convert(member.value, as: schema.types[slot], path: "params.\(member.key)") ?? .null
            }
            errors.append(contentsOf: reader.errors)
        }
        return makeTrigger(type: type, at: at, subject: subject, params: values)
    }

    /// A request's value of a declared app preference, nil when it is not of `type`.
    static func preferenceValue(_ json: JSON, of type: ValueType) -> Value? {
        switch (type, json) {
        case (.bool, .bool(let b)): .bool(b)
        case (.int, .int(let n)): .int(n)
        case (.string, .string(let s)): .string(s)
        case (.enumeration(let e), .string(let s)) where e.cases.contains(s): .string(s)
        default: nil
        }
    }
}

extension ValueReader {
    /// Converts the members of `json` by the schema `node` into `fields` (by slot). `readingID`:
    /// the object is the user record, whose `id` is not part of the schema; it is returned when
    /// it is a string.
    @discardableResult
    mutating func object(_ json: JSON, node: SchemaSlotNode, into fields: inout [Value], readingID: Bool = false) -> String? {
        guard case .object(let members) = json else {
            fail(node.path, "an object", json)
            return nil
        }
        var id: String?
        for member in members {
            if readingID, member.key == "id" {
                if case .string(let s) = member.value { id = s }
                continue
            }
            switch node.child(member.key) {
            case nil:
                unknown(member.key, in: node)
            case .object(let inner)?:
                object(member.value, node: inner, into: &fields)
            case .value(let leaf)?:
                let value = convert(member.value, as: leaf.type, path: leaf.path)
                if leaf.slot >= 0 && leaf.slot < fields.count { fields[leaf.slot] = value ?? .null }
            }
        }
        return id
    }
}
