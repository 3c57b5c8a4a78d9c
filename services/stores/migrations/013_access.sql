-- Who may see and change what (issue 32). With no row in app_users nothing changes: no login or the shared
-- password, everyone may do everything, memory and conversations are shared (owner NULL).
-- Passwords and tokens are stored hashed (scrypt; SHA-256 of a random 256-bit token), never in clear.
CREATE TABLE app_users (
    id            BIGSERIAL PRIMARY KEY,
    name          TEXT NOT NULL UNIQUE CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$'),
    password_hash TEXT,
    is_admin      BOOLEAN NOT NULL DEFAULT false,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- A user's role in one collection: viewer < editor < owner.
CREATE TABLE collection_grants (
    user_id       BIGINT NOT NULL REFERENCES app_users(id) ON DELETE CASCADE,
    collection_id BIGINT NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
    role          TEXT NOT NULL CHECK (role IN ('viewer', 'editor', 'owner')),
    PRIMARY KEY (user_id, collection_id)
);

-- Collections anonymous visitors may read (the demo case); they are viewers, never more.
CREATE TABLE anonymous_collections (
    collection_id BIGINT PRIMARY KEY REFERENCES collections(id) ON DELETE CASCADE
);

-- Tokens for the MCP server over HTTP; each acts as its user.
CREATE TABLE access_tokens (
    id          BIGSERIAL PRIMARY KEY,
    user_id     BIGINT NOT NULL REFERENCES app_users(id) ON DELETE CASCADE,
    token_hash  TEXT NOT NULL UNIQUE,
    label       TEXT NOT NULL DEFAULT '',
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    revoked_at  TIMESTAMPTZ
);

-- Every write made through the access service: who, when, what, on what.
CREATE TABLE audit_log (
    id         BIGSERIAL PRIMARY KEY,
    at         TIMESTAMPTZ NOT NULL DEFAULT now(),
    actor      TEXT NOT NULL,
    action     TEXT NOT NULL,
    target     TEXT NOT NULL DEFAULT '',
    detail     JSONB NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX audit_log_at ON audit_log (at DESC, id DESC);

-- Private by person: a user's conversations and memory facts (NULL: shared, as before users existed).
ALTER TABLE conversations ADD COLUMN owner TEXT;
ALTER TABLE memory_facts ADD COLUMN owner TEXT;
CREATE INDEX conversations_owner ON conversations (owner);
CREATE INDEX memory_facts_owner ON memory_facts (owner);
