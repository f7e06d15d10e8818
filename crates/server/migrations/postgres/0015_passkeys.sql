-- Passkeys (WebAuthn; docs/server.md, "Passkeys"): an account may sign in with any of its
-- passkeys instead of, or besides, a password.
CREATE TABLE passkeys (
    -- The credential's id, base64url: what the browser names at sign-in.
    credential_id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    -- The WebAuthn user handle (a UUID), one per account: the authenticator keeps it and
    -- hands it back at sign-in.
    user_handle TEXT NOT NULL,
    -- webauthn-rs's Passkey as JSON: the public key and the signature counter.
    passkey TEXT NOT NULL,
    -- Unix milliseconds.
    created BIGINT NOT NULL,
    used BIGINT
);
CREATE INDEX passkeys_by_account ON passkeys (account_id);

-- A passkey ceremony between its two requests (any server process may take the second):
-- the challenge sent, as webauthn-rs's state, for five minutes, taken once.
CREATE TABLE passkey_ceremonies (
    id TEXT PRIMARY KEY,
    -- 'register' or 'sign_in'.
    kind TEXT NOT NULL,
    -- Registering: the account adding a passkey, or NULL for a sign-up of `name`.
    account_id TEXT,
    name TEXT,
    user_handle TEXT,
    state TEXT NOT NULL,
    -- Unix milliseconds.
    expires BIGINT NOT NULL
);
