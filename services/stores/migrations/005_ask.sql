-- Conversations with their turns (what each turn retrieved, for follow-ups and diagnostics),
-- and short memory facts about the user, embedded for similarity.
CREATE TABLE conversations (
    id          BIGSERIAL PRIMARY KEY,
    title       TEXT NOT NULL DEFAULT 'New conversation',
    collections TEXT[] NOT NULL DEFAULT '{}',
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE turns (
    id              BIGSERIAL PRIMARY KEY,
    conversation_id BIGINT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    role            TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
    content         TEXT NOT NULL,
    retrieved       JSONB NOT NULL DEFAULT '{}'::jsonb,
    details         JSONB NOT NULL DEFAULT '{}'::jsonb,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX turns_conversation ON turns (conversation_id, id);

CREATE TABLE memory_facts (
    id              BIGSERIAL PRIMARY KEY,
    text            TEXT NOT NULL CHECK (length(btrim(text)) > 0),
    embedding       vector NOT NULL,
    embedding_model TEXT NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);
