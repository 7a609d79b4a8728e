\set u random(0, :users - 1)
\set n random(1, 2000000000)
BEGIN;
SELECT user_id FROM herald_users WHERE user_id = 'u' || :u FOR UPDATE;
SELECT body FROM herald_responses WHERE user_id = 'u' || :u AND request_key = 'bench-' || :n;
SELECT key, type, subject, channel, deliver_at, status, batch_key, recorded_at, updated_at FROM herald_entries WHERE user_id = 'u' || :u AND deliver_at >= 1773050400 - 345600 ORDER BY deliver_at, id;
SELECT key, type, subject, channel, deliver_at, status, batch_key, recorded_at, updated_at FROM herald_entries WHERE user_id = 'u' || :u AND key = ANY (ARRAY['ping:b' || :n]) AND status <> 'cancelled' ORDER BY deliver_at, id;
INSERT INTO herald_entries (user_id, key, type, subject, channel, deliver_at, status, batch_key, recorded_at, updated_at) VALUES ('u' || :u, 'ping:b' || :n, 'ping', NULL, 'push', 1773050400, 'scheduled', NULL, 1773050400, 1773050400);
INSERT INTO herald_responses (user_id, request_key, body, recorded_at) VALUES ('u' || :u, 'bench-' || :n, repeat('x', 4000), 1773050400);
COMMIT;
