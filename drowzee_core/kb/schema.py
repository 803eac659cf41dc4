"""The SQLite schema of a knowledge base file (tables, indexes), applied by `KBStore` on open."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS entity (
  id INTEGER PRIMARY KEY,
  key TEXT NOT NULL UNIQUE,
  label TEXT NOT NULL,
  kind TEXT NOT NULL DEFAULT 'entity',
  aliases TEXT NOT NULL DEFAULT '[]',
  description TEXT
);
CREATE INDEX IF NOT EXISTS entity_label ON entity(label);
CREATE INDEX IF NOT EXISTS entity_label_nocase ON entity(label COLLATE NOCASE);
CREATE TABLE IF NOT EXISTS alias (
  entity INTEGER NOT NULL REFERENCES entity(id),
  alias TEXT NOT NULL COLLATE NOCASE,
  PRIMARY KEY (alias, entity)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS relation (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  spec TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS rule (
  kind TEXT NOT NULL,
  spec TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS source (
  name TEXT PRIMARY KEY,
  licence TEXT NOT NULL,
  url TEXT NOT NULL DEFAULT '',
  note TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS triple (
  id INTEGER PRIMARY KEY,
  s INTEGER NOT NULL,
  r INTEGER NOT NULL,
  o INTEGER NOT NULL,
  negated INTEGER NOT NULL DEFAULT 0,
  start_year INTEGER,
  end_year INTEGER,
  domain TEXT NOT NULL,
  source TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS triple_key
  ON triple(s, r, o, negated, coalesce(start_year, -999999), coalesce(end_year, -999999));
CREATE INDEX IF NOT EXISTS triple_or ON triple(o, r);
CREATE INDEX IF NOT EXISTS triple_r ON triple(r);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
"""Idempotent DDL: every statement is `IF NOT EXISTS`."""

__all__ = ["SCHEMA"]
