\set u random(0, :users - 1)
\set n random(1, 2000000000)
BEGIN;
SELECT * FROM herald_unit_read('u' || :u, NULL, 1773050400 - 345600, '{}');
SELECT * FROM herald_unit_write('u' || :u, 1773050400, NULL, '', ARRAY['ping:b' || :n], '{}', '[]'::jsonb, ('[{"key":"ping:b' || :n || '","type":"ping","channel":"push","deliver_at":1773050400,"status":"scheduled"}]')::jsonb);
COMMIT;
