-- Asset types come from the engine's product registry (engine/src/products/registry.ts):
-- a new product must not need a migration, so the fixed list of 0003 becomes a shape check.
ALTER TABLE assets DROP CONSTRAINT assets_type_check;
ALTER TABLE assets ADD CONSTRAINT assets_type_check CHECK (type ~ '^[A-Z][A-Z0-9_]{1,39}$');
