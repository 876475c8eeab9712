-- Subscriptions (spec §3, §4): templates, each user's subscriptions with their credits (hectares)
-- and limits, the credits ledger (the charges table of 0003, extended), an audit trail of every
-- change, and the payment provider's bookkeeping (checkout sessions, payments, webhook events).
-- Forward only: never edit an applied migration; add the next number instead.
--
-- The per-user standing of 0004 (user_limits.subscription_status, credit_hectares and the limits)
-- is turned into a subscription by the API, not here: a figure an admin never set meant the
-- configured default (DEFAULT_SUBSCRIPTION_STATUS, DEFAULT_CREDIT_HECTARES, DEFAULT_MAX_*), which
-- only the running API knows. It converts every user without a subscription at start and, for
-- any user still without one, on first use (services/subscription.service.ts, ensureSubscription):
-- credits = granted (or the default) - charged, the same status and limits.

CREATE TABLE subscription_templates (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  -- Disabled templates are not offered on the buy page and cannot start new subscriptions.
  enabled boolean NOT NULL DEFAULT true,
  -- The freemium template every new account is subscribed to (at most one).
  is_default boolean NOT NULL DEFAULT false,
  category text NOT NULL CHECK (category IN ('PAID', 'FREEMIUM')),
  -- Window in which the offer can be subscribed to (null: open).
  start_date timestamptz,
  end_date timestamptz,
  -- Hectares a new subscription starts with, and hectares given at each allocation.
  credits double precision NOT NULL DEFAULT 0 CHECK (credits >= 0 AND credits < 'Infinity'),
  credits_allowance double precision NOT NULL DEFAULT 0
    CHECK (credits_allowance >= 0 AND credits_allowance < 'Infinity'),
  -- NONE: credits once (a pack); MONTH / YEAR: an allocation each period.
  allocation_period text NOT NULL DEFAULT 'NONE' CHECK (allocation_period IN ('NONE', 'MONTH', 'YEAR')),
  -- A subscription made from it ends this many months after it starts (null: until cancelled).
  duration_months integer CHECK (duration_months BETWEEN 1 AND 1200),
  -- Downloading the classified point cloud (spec §1).
  premium boolean NOT NULL DEFAULT false,
  -- Price shown on the buy page and counted as revenue (minor units, ISO 4217 lower case);
  -- the payment provider's price (payment_product_id) is what is actually charged.
  price_amount integer CHECK (price_amount >= 0),
  price_currency text CHECK (price_currency ~ '^[a-z]{3}$'),
  payment_product_id text,
  payment_product_reference text,
  -- Limits; null: the configured default (DEFAULT_MAX_PROJECTS, ...).
  max_projects integer CHECK (max_projects >= 0),
  max_input_file_bytes bigint CHECK (max_input_file_bytes >= 0),
  max_storage_bytes bigint CHECK (max_storage_bytes >= 0),
  creator_id bigint REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT subscription_templates_texts CHECK (
    char_length(name) BETWEEN 1 AND 254 AND position('/' IN name) = 0 AND char_length(description) <= 2000
  ),
  CONSTRAINT subscription_templates_dates CHECK (end_date IS NULL OR start_date IS NULL OR end_date > start_date),
  CONSTRAINT subscription_templates_paid CHECK (category = 'PAID' OR payment_product_id IS NULL)
);
CREATE UNIQUE INDEX subscription_templates_default_key ON subscription_templates (is_default) WHERE is_default;

CREATE TABLE subscriptions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  template_id bigint REFERENCES subscription_templates (id) ON DELETE SET NULL,
  -- Who made it: an admin, or the user (sign-up, purchase); null when the account is gone.
  creator_id bigint REFERENCES users (id) ON DELETE SET NULL,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  enabled boolean NOT NULL DEFAULT true,
  start_date timestamptz NOT NULL DEFAULT now(),
  end_date timestamptz,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive', 'suspended', 'unsubscribed')),
  -- The three-way status the admin lists show (spec §4 global status).
  global_status text GENERATED ALWAYS AS (
    CASE status WHEN 'active' THEN 'ACTIVE' WHEN 'suspended' THEN 'SUSPENDED' ELSE 'INACTIVE' END
  ) STORED,
  category text NOT NULL CHECK (category IN ('PAID', 'FREEMIUM')),
  -- Hectares available now (reservations already taken off); never negative.
  credits double precision NOT NULL DEFAULT 0 CHECK (credits >= 0 AND credits < 'Infinity'),
  credits_allowance double precision NOT NULL DEFAULT 0
    CHECK (credits_allowance >= 0 AND credits_allowance < 'Infinity'),
  allocation_period text NOT NULL DEFAULT 'NONE' CHECK (allocation_period IN ('NONE', 'MONTH', 'YEAR')),
  last_allocation_date timestamptz,
  next_allocation_date timestamptz,
  -- End of the period paid for (the anniversary a cancellation takes effect at).
  valid_until timestamptz,
  -- Cancelled: stays active until valid_until, then ends (spec §4).
  unsubscribe_pending boolean NOT NULL DEFAULT false,
  premium boolean NOT NULL DEFAULT false,
  payment_product_id text,
  payment_subscription_id text UNIQUE,
  payment_product_reference text,
  payment_customer_id text,
  -- A failed renewal payment: suspended when grace_until passes without a paid invoice.
  payment_failed_at timestamptz,
  grace_until timestamptz,
  suspension_reason text CHECK (suspension_reason IN ('admin', 'payment')),
  max_projects integer CHECK (max_projects >= 0),
  max_input_file_bytes bigint CHECK (max_input_file_bytes >= 0),
  max_storage_bytes bigint CHECK (max_storage_bytes >= 0),
  -- The subscription that applies to the user now (at most one per user); the others are history.
  is_current boolean NOT NULL DEFAULT true,
  ended_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT subscriptions_texts CHECK (
    char_length(name) BETWEEN 1 AND 254 AND char_length(description) <= 2000
  )
);
CREATE UNIQUE INDEX subscriptions_current_key ON subscriptions (user_id) WHERE is_current;
CREATE INDEX subscriptions_user_idx ON subscriptions (user_id, id);
CREATE INDEX subscriptions_template_idx ON subscriptions (template_id);
CREATE INDEX subscriptions_due_idx ON subscriptions (next_allocation_date) WHERE is_current;

-- The credits ledger: every movement of a subscription's credits, one row each, keyed so that
-- nothing is applied twice. delta is what the row did to subscriptions.credits (signed);
-- hectares its size. opening: the balance a converted standing started with; allocation: a
-- period's or a purchase's credits; grant / adjustment: an admin by hand; reservation: a
-- processing request took the project's area; release: a processing that failed gave it back;
-- charge: a processing succeeded (the reserved hectares are spent; delta 0); transfer: credits
-- moved to the user's next subscription. Rows of 0003 (charges before reservations) stay as charges.
ALTER TABLE charges
  ADD COLUMN kind text NOT NULL DEFAULT 'charge'
    CHECK (kind IN ('opening', 'allocation', 'grant', 'adjustment', 'reservation', 'release', 'charge', 'transfer')),
  ADD COLUMN subscription_id bigint REFERENCES subscriptions (id) ON DELETE SET NULL,
  ADD COLUMN delta double precision NOT NULL DEFAULT 0 CHECK (delta > '-Infinity' AND delta < 'Infinity'),
  -- A release or a charge settles one reservation, once.
  ADD COLUMN reservation_id bigint UNIQUE REFERENCES charges (id) ON DELETE SET NULL,
  ADD COLUMN actor_id bigint REFERENCES users (id) ON DELETE SET NULL,
  ADD COLUMN note text CHECK (char_length(note) <= 2000);
CREATE INDEX charges_subscription_idx ON charges (subscription_id, id);
CREATE INDEX charges_job_idx ON charges (job_id) WHERE job_id IS NOT NULL;
CREATE INDEX charges_open_reservations_idx ON charges (created_at) WHERE kind = 'reservation';
CREATE INDEX charges_kind_time_idx ON charges (kind, created_at);

-- Who changed what, when: every admin action, billing event and scheduled change.
CREATE TABLE subscription_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  subscription_id bigint REFERENCES subscriptions (id) ON DELETE CASCADE,
  template_id bigint REFERENCES subscription_templates (id) ON DELETE CASCADE,
  -- null: the system (payment provider, scheduled job).
  actor_id bigint REFERENCES users (id) ON DELETE SET NULL,
  action text NOT NULL,
  details jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT subscription_events_subject CHECK (subscription_id IS NOT NULL OR template_id IS NOT NULL)
);
CREATE INDEX subscription_events_subscription_idx ON subscription_events (subscription_id, id);
CREATE INDEX subscription_events_template_idx ON subscription_events (template_id, id);

-- The payment provider's customer of each user.
CREATE TABLE payment_customers (
  user_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  customer_id text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Checkout sessions started from the buy page.
CREATE TABLE purchases (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint REFERENCES users (id) ON DELETE SET NULL,
  template_id bigint REFERENCES subscription_templates (id) ON DELETE SET NULL,
  subscription_id bigint REFERENCES subscriptions (id) ON DELETE SET NULL,
  checkout_session_id text UNIQUE,
  mode text NOT NULL CHECK (mode IN ('subscription', 'payment')),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'completed', 'cancelled', 'expired')),
  hectares double precision,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz
);
CREATE INDEX purchases_user_idx ON purchases (user_id, id);

-- Money received (revenue statistics): one row per paid invoice or one-off checkout.
CREATE TABLE payments (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  provider_ref text NOT NULL UNIQUE,
  user_id bigint REFERENCES users (id) ON DELETE SET NULL,
  subscription_id bigint REFERENCES subscriptions (id) ON DELETE SET NULL,
  template_id bigint REFERENCES subscription_templates (id) ON DELETE SET NULL,
  amount integer NOT NULL CHECK (amount >= 0),
  currency text NOT NULL CHECK (currency ~ '^[a-z]{3}$'),
  paid_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payments_paid_idx ON payments (paid_at);

-- Webhook deliveries already applied (idempotency: a replayed event id changes nothing).
CREATE TABLE payment_events (
  event_id text PRIMARY KEY,
  type text NOT NULL,
  provider_created_at timestamptz,
  received_at timestamptz NOT NULL DEFAULT now(),
  outcome text NOT NULL DEFAULT 'applied'
);

-- Credits per user now come from the current subscription (same columns as 0004's view):
-- credits = its balance (null without one), granted = every credit ever added, charged = spent.
CREATE OR REPLACE VIEW user_credit_totals AS
  SELECT
    u.id AS user_id,
    s.credits::double precision AS credits,
    g.hectares::double precision AS granted_hectares,
    coalesce(c.hectares, 0)::double precision AS charged_hectares
  FROM users u
  LEFT JOIN subscriptions s ON s.user_id = u.id AND s.is_current
  LEFT JOIN (
    SELECT user_id, sum(delta) AS hectares FROM charges
    WHERE kind IN ('opening', 'allocation', 'grant') AND delta > 0 AND user_id IS NOT NULL GROUP BY user_id
  ) g ON g.user_id = u.id
  LEFT JOIN (
    SELECT user_id, sum(hectares) AS hectares FROM charges WHERE kind = 'charge' AND user_id IS NOT NULL GROUP BY user_id
  ) c ON c.user_id = u.id;
