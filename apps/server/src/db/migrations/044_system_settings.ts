/**
 * System Setting (modules/system-settings): the settings live in `settings` (011), one row a field.
 * Every write takes the next `version`, so each server process sees a change by reading the largest
 * version every few seconds (one index-free read of a few rows) and reloads only then.
 */
export const sql = `
  CREATE SEQUENCE settings_version_seq;
  ALTER TABLE settings ADD COLUMN version bigint NOT NULL DEFAULT nextval('settings_version_seq');
`;
