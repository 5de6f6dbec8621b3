/** A JSON object (not null, not an array): what a request body or one of its fields must be to read its keys. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
