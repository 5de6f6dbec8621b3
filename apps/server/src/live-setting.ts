/**
 * A setting a long-lived part reads each time it uses it: a fixed value (tests, the bench) or a read of
 * System Setting's current value (modules/system-settings), so a change applies without a restart.
 */
export type Live<T> = T | (() => T);

export function valueOf<T>(setting: Live<T>): T {
  return typeof setting === 'function' ? (setting as () => T)() : setting;
}
