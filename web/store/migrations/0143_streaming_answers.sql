-- Answers are now saved while they stream (status 'streaming') and closed
-- with how they ended. At startup the store marks any answer a crash left
-- 'streaming' as 'interrupted'; this partial index keeps that look-up from
-- scanning every message ever saved.
CREATE INDEX messages_streaming ON messages (id) WHERE status = 'streaming';
