-- Subscription standing per user, until the billing work lands: admins set it, as they set
-- users.premium. A missing row or a null column means the API's configured default
-- (DEFAULT_SUBSCRIPTION_STATUS, DEFAULT_CREDIT_HECTARES in api/src/config.ts).
ALTER TABLE user_limits
  ADD COLUMN subscription_status text
    CHECK (subscription_status IN ('active', 'inactive', 'suspended', 'unsubscribed', 'none')),
  ADD COLUMN credit_hectares double precision CHECK (credit_hectares >= 0 AND credit_hectares < 'Infinity');

-- Credits (hectares) per user: granted minus every charge of the ledger.
-- credits is the available figure when the user has granted credits of their own; it is null
-- when the default applies (the API then takes DEFAULT_CREDIT_HECTARES - charged_hectares).
CREATE OR REPLACE VIEW user_credit_totals AS
  SELECT
    u.id AS user_id,
    (l.credit_hectares - coalesce(c.hectares, 0))::double precision AS credits,
    l.credit_hectares AS granted_hectares,
    coalesce(c.hectares, 0)::double precision AS charged_hectares
  FROM users u
  LEFT JOIN user_limits l ON l.user_id = u.id
  LEFT JOIN (
    SELECT user_id, sum(hectares) AS hectares FROM charges WHERE user_id IS NOT NULL GROUP BY user_id
  ) c ON c.user_id = u.id;
