#if Server
internal import Logging
internal import PostgresNIO

/// The PostgreSQL ledger's schema and its versioned migrations (docs/store.md, "Schema").
///
/// Every table is prefixed `herald_` so that the ledger can share a database with the
/// application's own tables, and every table's primary key starts with `user_id`, the column a
/// distributed PostgreSQL (Citus) shards by: each unit of work touches one user's rows only.
enum PostgresSchema {
    /// One step of the schema. Versions are consecutive from 1 and never change once released;
    /// a new step is appended.
    struct Migration: Sendable {
        let version: Int
        let name: String
        let statements: [String]
    }

    static let migrations: [Migration] = [
        Migration(version: 1, name: "ledger", statements: [
            // The row a unit of work locks (`SELECT … FOR UPDATE`): one per user, made by the
            // user's first unit of work.
            "CREATE TABLE herald_users (user_id text PRIMARY KEY)",
            """
            CREATE TABLE herald_entries (
                user_id text NOT NULL,
                id bigint GENERATED ALWAYS AS IDENTITY,
                key text NOT NULL,
                type text NOT NULL,
                subject text,
                channel text,
                deliver_at bigint NOT NULL,
                status text NOT NULL
                    CHECK (status IN ('scheduled', 'delivered', 'opened', 'dismissed', 'cancelled')),
                batch_key text,
                recorded_at bigint NOT NULL,
                updated_at bigint NOT NULL,
                PRIMARY KEY (user_id, id)
            )
            """,
            // Keys are unique per user among live entries (every status but `cancelled`).
            "CREATE UNIQUE INDEX herald_entries_live_key ON herald_entries (user_id, key) WHERE status <> 'cancelled'",
            // What a unit of work reads: the user's entries from an instant on.
            "CREATE INDEX herald_entries_user_deliver ON herald_entries (user_id, deliver_at)",
            // Retention's cut-off.
            "CREATE INDEX herald_entries_deliver ON herald_entries (deliver_at)",
            // Responses stored under the request's idempotency key, returned byte for byte.
            """
            CREATE TABLE herald_responses (
                user_id text NOT NULL,
                request_key text NOT NULL,
                body text NOT NULL,
                recorded_at bigint NOT NULL,
                PRIMARY KEY (user_id, request_key)
            )
            """,
            "CREATE INDEX herald_responses_recorded ON herald_responses (recorded_at)",
        ]),
        // A unit of work in two calls instead of six to eight statements (docs/store.md, "The
        // unit of work"): `herald_unit_read` locks the user's row, answers a replay or reads
        // the window; `herald_unit_write` checks the keys the decision inserts and writes it.
        // Both run inside the unit's transaction; neither commits.
        Migration(version: 2, name: "unit-functions", statements: [
            """
            CREATE FUNCTION herald_unit_read(p_user text, p_request_key text, p_since bigint, p_lifetime_types text[])
            RETURNS TABLE (o_replay text, o_key text, o_type text, o_subject text, o_channel text, o_deliver_at bigint,
                           o_status text, o_batch_key text, o_recorded_at bigint, o_updated_at bigint)
            LANGUAGE plpgsql AS $fn$
            BEGIN
                -- The row lock (not an advisory lock: it also works where tables are sharded by user).
                PERFORM 1 FROM herald_users u WHERE u.user_id = p_user FOR UPDATE;
                IF NOT FOUND THEN
                    INSERT INTO herald_users (user_id) VALUES (p_user) ON CONFLICT (user_id) DO NOTHING;
                    PERFORM 1 FROM herald_users u WHERE u.user_id = p_user FOR UPDATE;
                    IF NOT FOUND THEN
                        -- Deleted (`forget`) between the insert and the lock: the caller runs the unit again.
                        RAISE EXCEPTION 'the row of user % vanished while it was being locked', p_user
                            USING ERRCODE = 'serialization_failure';
                    END IF;
                END IF;
                IF p_request_key IS NOT NULL THEN
                    RETURN QUERY SELECT r.body, NULL::text, NULL::text, NULL::text, NULL::text, NULL::bigint,
                                        NULL::text, NULL::text, NULL::bigint, NULL::bigint
                        FROM herald_responses r WHERE r.user_id = p_user AND r.request_key = p_request_key;
                    IF FOUND THEN
                        RETURN;
                    END IF;
                END IF;
                IF p_since IS NULL THEN
                    RETURN QUERY SELECT NULL::text, e.key, e.type, e.subject, e.channel, e.deliver_at, e.status,
                                        e.batch_key, e.recorded_at, e.updated_at
                        FROM herald_entries e WHERE e.user_id = p_user ORDER BY e.deliver_at, e.id;
                ELSIF cardinality(p_lifetime_types) = 0 THEN
                    RETURN QUERY SELECT NULL::text, e.key, e.type, e.subject, e.channel, e.deliver_at, e.status,
                                        e.batch_key, e.recorded_at, e.updated_at
                        FROM herald_entries e WHERE e.user_id = p_user AND e.deliver_at >= p_since
                        ORDER BY e.deliver_at, e.id;
                ELSE
                    RETURN QUERY SELECT NULL::text, e.key, e.type, e.subject, e.channel, e.deliver_at, e.status,
                                        e.batch_key, e.recorded_at, e.updated_at
                        FROM herald_entries e
                        WHERE e.user_id = p_user AND (e.deliver_at >= p_since OR e.type = ANY (p_lifetime_types))
                        ORDER BY e.deliver_at, e.id;
                END IF;
            END
            $fn$
            """,
            """
            CREATE FUNCTION herald_unit_write(p_user text, p_now bigint, p_request_key text, p_response text,
                                              p_check_keys text[], p_cancel text[], p_update jsonb, p_insert jsonb)
            RETURNS TABLE (o_key text, o_type text, o_subject text, o_channel text, o_deliver_at bigint,
                           o_status text, o_batch_key text, o_recorded_at bigint, o_updated_at bigint)
            LANGUAGE plpgsql AS $fn$
            DECLARE
                v_key text;
                v_entry record;
                v_inserted text[];
            BEGIN
                -- Keys the decision inserts that its read did not show: a live entry holding one is
                -- returned and nothing is written (the caller decides again with it).
                IF cardinality(p_check_keys) > 0 THEN
                    RETURN QUERY SELECT e.key, e.type, e.subject, e.channel, e.deliver_at, e.status,
                                        e.batch_key, e.recorded_at, e.updated_at
                        FROM herald_entries e
                        WHERE e.user_id = p_user AND e.key = ANY (p_check_keys) AND e.status <> 'cancelled'
                        ORDER BY e.deliver_at, e.id;
                    IF FOUND THEN
                        RETURN;
                    END IF;
                END IF;
                FOREACH v_key IN ARRAY p_cancel LOOP
                    UPDATE herald_entries e SET status = 'cancelled', updated_at = p_now
                        WHERE e.user_id = p_user AND e.key = v_key AND e.status <> 'cancelled';
                    IF NOT FOUND THEN
                        RAISE EXCEPTION USING ERRCODE = 'HR704', MESSAGE = v_key;
                    END IF;
                END LOOP;
                FOR v_entry IN SELECT * FROM jsonb_to_recordset(p_update) AS x(key text, type text, subject text,
                        channel text, deliver_at bigint, status text, batch_key text) LOOP
                    UPDATE herald_entries e SET type = v_entry.type, subject = v_entry.subject,
                            channel = v_entry.channel, deliver_at = v_entry.deliver_at, status = v_entry.status,
                            batch_key = v_entry.batch_key, updated_at = p_now
                        WHERE e.user_id = p_user AND e.key = v_entry.key AND e.status <> 'cancelled';
                    IF NOT FOUND THEN
                        RAISE EXCEPTION USING ERRCODE = 'HR704', MESSAGE = v_entry.key;
                    END IF;
                END LOOP;
                -- In the proposal's order (an entry's id orders entries delivering at one instant).
                WITH inserted AS (
                    INSERT INTO herald_entries
                        (user_id, key, type, subject, channel, deliver_at, status, batch_key, recorded_at, updated_at)
                    SELECT p_user, a.v->>'key', a.v->>'type', a.v->>'subject', a.v->>'channel',
                           (a.v->>'deliver_at')::bigint, a.v->>'status', a.v->>'batch_key', p_now, p_now
                    FROM jsonb_array_elements(p_insert) WITH ORDINALITY AS a(v, n)
                    ORDER BY a.n
                    ON CONFLICT (user_id, key) WHERE status <> 'cancelled' DO NOTHING
                    RETURNING key)
                SELECT array_agg(i.key) INTO v_inserted FROM inserted i;
                IF coalesce(cardinality(v_inserted), 0) < jsonb_array_length(p_insert) THEN
                    -- A key held by a live entry the read showed (or twice in the proposal).
                    SELECT a.v->>'key' INTO v_key FROM jsonb_array_elements(p_insert) WITH ORDINALITY AS a(v, n)
                        ORDER BY (a.v->>'key') = ANY (coalesce(v_inserted, '{}')),
                                 count(*) OVER (PARTITION BY a.v->>'key') DESC, a.n
                        LIMIT 1;
                    RAISE EXCEPTION USING ERRCODE = 'HR707', MESSAGE = v_key;
                END IF;
                IF p_request_key IS NOT NULL THEN
                    INSERT INTO herald_responses (user_id, request_key, body, recorded_at)
                    VALUES (p_user, p_request_key, p_response, p_now);
                END IF;
            END
            $fn$
            """,
        ]),
        // A unit of work in two statements and no `BEGIN`/`COMMIT` when nobody else writes for
        // the user meanwhile (docs/store.md, "The unit of work"). Every change to a user's entries
        // or responses gives the user's row a new `version`, drawn from a sequence so that no
        // value ever comes back (not even after `forget`). `herald_unit_read` without the lock
        // returns the version with what it read; `herald_unit_write` takes the row lock
        // (`SELECT … FOR UPDATE`), compares the version and writes only when nothing was
        // committed for the user since the read; else it writes nothing and says so, and the
        // caller runs the unit again holding the lock from its read (the functions of
        // migration 2, now with the version), inside `BEGIN`/`COMMIT`.
        Migration(version: 3, name: "unit-versions", statements: [
            "ALTER TABLE herald_users ADD COLUMN version bigint NOT NULL DEFAULT 0",
            "CREATE SEQUENCE herald_versions",
            "DROP FUNCTION herald_unit_read(text, text, bigint, text[])",
            "DROP FUNCTION herald_unit_write(text, bigint, text, text, text[], text[], jsonb, jsonb)",
            """
            CREATE FUNCTION herald_unit_read(p_user text, p_request_key text, p_since bigint, p_lifetime_types text[],
                                             p_lock boolean)
            RETURNS TABLE (o_replay text, o_version bigint, o_key text, o_type text, o_subject text, o_channel text,
                           o_deliver_at bigint, o_status text, o_batch_key text, o_recorded_at bigint, o_updated_at bigint)
            LANGUAGE plpgsql AS $fn$
            DECLARE
                v_version bigint;
            BEGIN
                IF p_lock THEN
                    -- The row lock (not an advisory lock: it also works where tables are sharded by user).
                    SELECT u.version INTO v_version FROM herald_users u WHERE u.user_id = p_user FOR UPDATE;
                    IF NOT FOUND THEN
                        INSERT INTO herald_users (user_id) VALUES (p_user) ON CONFLICT (user_id) DO NOTHING;
                        SELECT u.version INTO v_version FROM herald_users u WHERE u.user_id = p_user FOR UPDATE;
                        IF NOT FOUND THEN
                            -- Deleted (`forget`) between the insert and the lock: the caller runs the unit again.
                            RAISE EXCEPTION 'the row of user % vanished while it was being locked', p_user
                                USING ERRCODE = 'serialization_failure';
                        END IF;
                    END IF;
                ELSE
                    -- No lock. The version is read first: each statement of this (volatile) function
                    -- sees what was committed when it began, so what follows is at least as new as
                    -- the version, and a write that finds the version unchanged finds it all unchanged.
                    -- No row yet: 0 (a row is made only by a write, with a fresh version, and
                    -- `forget` deletes it with every entry and response of the user).
                    SELECT u.version INTO v_version FROM herald_users u WHERE u.user_id = p_user;
                    IF NOT FOUND THEN
                        v_version := 0;
                    END IF;
                END IF;
                IF p_request_key IS NOT NULL THEN
                    RETURN QUERY SELECT r.body, v_version, NULL::text, NULL::text, NULL::text, NULL::text, NULL::bigint,
                                        NULL::text, NULL::text, NULL::bigint, NULL::bigint
                        FROM herald_responses r WHERE r.user_id = p_user AND r.request_key = p_request_key;
                    IF FOUND THEN
                        RETURN;
                    END IF;
                END IF;
                -- The first row: the version, no entry.
                RETURN QUERY SELECT NULL::text, v_version, NULL::text, NULL::text, NULL::text, NULL::text, NULL::bigint,
                                    NULL::text, NULL::text, NULL::bigint, NULL::bigint;
                IF p_since IS NULL THEN
                    RETURN QUERY SELECT NULL::text, NULL::bigint, e.key, e.type, e.subject, e.channel, e.deliver_at,
                                        e.status, e.batch_key, e.recorded_at, e.updated_at
                        FROM herald_entries e WHERE e.user_id = p_user ORDER BY e.deliver_at, e.id;
                ELSIF cardinality(p_lifetime_types) = 0 THEN
                    RETURN QUERY SELECT NULL::text, NULL::bigint, e.key, e.type, e.subject, e.channel, e.deliver_at,
                                        e.status, e.batch_key, e.recorded_at, e.updated_at
                        FROM herald_entries e WHERE e.user_id = p_user AND e.deliver_at >= p_since
                        ORDER BY e.deliver_at, e.id;
                ELSE
                    RETURN QUERY SELECT NULL::text, NULL::bigint, e.key, e.type, e.subject, e.channel, e.deliver_at,
                                        e.status, e.batch_key, e.recorded_at, e.updated_at
                        FROM herald_entries e
                        WHERE e.user_id = p_user AND (e.deliver_at >= p_since OR e.type = ANY (p_lifetime_types))
                        ORDER BY e.deliver_at, e.id;
                END IF;
            END
            $fn$
            """,
            """
            CREATE FUNCTION herald_unit_write(p_user text, p_version bigint, p_now bigint, p_request_key text,
                                              p_response text, p_check_keys text[], p_cancel text[], p_update jsonb,
                                              p_insert jsonb)
            RETURNS TABLE (o_stale boolean, o_key text, o_type text, o_subject text, o_channel text, o_deliver_at bigint,
                           o_status text, o_batch_key text, o_recorded_at bigint, o_updated_at bigint)
            LANGUAGE plpgsql AS $fn$
            DECLARE
                v_version bigint;
                v_key text;
                v_entry record;
                v_inserted text[];
            BEGIN
                -- The user's row lock, held to the end of the transaction (this statement's own when
                -- the caller sent no BEGIN). A user without a row gets one here.
                SELECT u.version INTO v_version FROM herald_users u WHERE u.user_id = p_user FOR UPDATE;
                IF NOT FOUND AND p_version = 0 THEN
                    INSERT INTO herald_users (user_id) VALUES (p_user) ON CONFLICT (user_id) DO NOTHING;
                    SELECT u.version INTO v_version FROM herald_users u WHERE u.user_id = p_user FOR UPDATE;
                END IF;
                -- Anything committed for the user since the read (or the row gone): write nothing.
                IF v_version IS DISTINCT FROM p_version THEN
                    RETURN QUERY SELECT true, NULL::text, NULL::text, NULL::text, NULL::text, NULL::bigint,
                                        NULL::text, NULL::text, NULL::bigint, NULL::bigint;
                    RETURN;
                END IF;
                -- Keys the decision inserts that its read did not show: a live entry holding one is
                -- returned and nothing is written (the caller decides again with it).
                IF cardinality(p_check_keys) > 0 THEN
                    RETURN QUERY SELECT false, e.key, e.type, e.subject, e.channel, e.deliver_at, e.status,
                                        e.batch_key, e.recorded_at, e.updated_at
                        FROM herald_entries e
                        WHERE e.user_id = p_user AND e.key = ANY (p_check_keys) AND e.status <> 'cancelled'
                        ORDER BY e.deliver_at, e.id;
                    IF FOUND THEN
                        RETURN;
                    END IF;
                END IF;
                FOREACH v_key IN ARRAY p_cancel LOOP
                    UPDATE herald_entries e SET status = 'cancelled', updated_at = p_now
                        WHERE e.user_id = p_user AND e.key = v_key AND e.status <> 'cancelled';
                    IF NOT FOUND THEN
                        RAISE EXCEPTION USING ERRCODE = 'HR704', MESSAGE = v_key;
                    END IF;
                END LOOP;
                FOR v_entry IN SELECT * FROM jsonb_to_recordset(p_update) AS x(key text, type text, subject text,
                        channel text, deliver_at bigint, status text, batch_key text) LOOP
                    UPDATE herald_entries e SET type = v_entry.type, subject = v_entry.subject,
                            channel = v_entry.channel, deliver_at = v_entry.deliver_at, status = v_entry.status,
                            batch_key = v_entry.batch_key, updated_at = p_now
                        WHERE e.user_id = p_user AND e.key = v_entry.key AND e.status <> 'cancelled';
                    IF NOT FOUND THEN
                        RAISE EXCEPTION USING ERRCODE = 'HR704', MESSAGE = v_entry.key;
                    END IF;
                END LOOP;
                -- In the proposal's order (an entry's id orders entries delivering at one instant).
                WITH inserted AS (
                    INSERT INTO herald_entries
                        (user_id, key, type, subject, channel, deliver_at, status, batch_key, recorded_at, updated_at)
                    SELECT p_user, a.v->>'key', a.v->>'type', a.v->>'subject', a.v->>'channel',
                           (a.v->>'deliver_at')::bigint, a.v->>'status', a.v->>'batch_key', p_now, p_now
                    FROM jsonb_array_elements(p_insert) WITH ORDINALITY AS a(v, n)
                    ORDER BY a.n
                    ON CONFLICT (user_id, key) WHERE status <> 'cancelled' DO NOTHING
                    RETURNING key)
                SELECT array_agg(i.key) INTO v_inserted FROM inserted i;
                IF coalesce(cardinality(v_inserted), 0) < jsonb_array_length(p_insert) THEN
                    -- A key held by a live entry the read showed (or twice in the proposal).
                    SELECT a.v->>'key' INTO v_key FROM jsonb_array_elements(p_insert) WITH ORDINALITY AS a(v, n)
                        ORDER BY (a.v->>'key') = ANY (coalesce(v_inserted, '{}')),
                                 count(*) OVER (PARTITION BY a.v->>'key') DESC, a.n
                        LIMIT 1;
                    RAISE EXCEPTION USING ERRCODE = 'HR707', MESSAGE = v_key;
                END IF;
                IF p_request_key IS NOT NULL THEN
                    INSERT INTO herald_responses (user_id, request_key, body, recorded_at)
                    VALUES (p_user, p_request_key, p_response, p_now);
                END IF;
                UPDATE herald_users u SET version = nextval('herald_versions') WHERE u.user_id = p_user;
            END
            $fn$
            """,
        ]),
    ]

    /// The newest schema version this binary knows.
    static var currentVersion: Int { migrations.last?.version ?? 0 }

    /// The outcome of `migrate`: the version found and the version left.
    struct MigrationResult: Sendable, Equatable {
        let found: Int
        let current: Int
    }

    /// Brings the database to `currentVersion`, one transaction for all pending steps.
    ///
    /// Concurrent callers (several Herald instances starting at once) serialise on an exclusive
    /// lock of the migrations table; the second one finds the work done.
    ///
    /// - Throws: `PostgresStoreFailure.schemaTooNew` when the database was migrated by a newer
    ///   binary (this one would misread it), or the server's error.
    static func migrate(_ connection: PostgresConnection, deadline: PostgresDeadline, logger: Logger) async throws -> MigrationResult {
        try await createMigrationsTable(connection, deadline: deadline, logger: logger)
        try await deadline.query("BEGIN", on: connection, logger: logger)
        do {
            try await deadline.query("LOCK TABLE herald_migrations IN EXCLUSIVE MODE", on: connection, logger: logger)
            var found = 0
            let rows = try await deadline.query("SELECT coalesce(max(version), 0) FROM herald_migrations", on: connection, logger: logger)
            for row in rows {
                found = try row.decode(Int.self)
            }
            guard found <= currentVersion else {
                throw PostgresStoreFailure.schemaTooNew(found: found, known: currentVersion)
            }
            for migration in migrations where migration.version > found {
                for statement in migration.statements {
                    try await deadline.query(PostgresQuery(unsafeSQL: statement), on: connection, logger: logger)
                }
                try await deadline.query(
                    "INSERT INTO herald_migrations (version, name) VALUES (\(migration.version), \(migration.name))",
                    on: connection, logger: logger
                )
                logger.info("herald ledger schema migrated", metadata: ["version": "\(migration.version)"])
            }
            try await deadline.query("COMMIT", on: connection, logger: logger)
            return MigrationResult(found: found, current: currentVersion)
        } catch {
            _ = try? await deadline.query("ROLLBACK", on: connection, logger: logger)
            throw error
        }
    }

    /// `CREATE TABLE IF NOT EXISTS` is not safe against a concurrent creator (both pass the
    /// check, one fails on the catalog's unique index), so a duplicate is read as success.
    private static func createMigrationsTable(_ connection: PostgresConnection, deadline: PostgresDeadline, logger: Logger) async throws {
        do {
            try await deadline.query(
                """
                CREATE TABLE IF NOT EXISTS herald_migrations (
                    version integer PRIMARY KEY,
                    name text NOT NULL,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                on: connection, logger: logger
            )
        } catch let error as PSQLError where ["23505", "42P07"].contains(error.serverInfo?[.sqlState]) {
            return
        }
    }
}
#endif
