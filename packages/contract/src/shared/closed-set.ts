/**
 * The values of a closed set, declared by the record that says what each one is called: each value is
 * written once, as a key of its labels, and the set keeps the record's order. The tuple is what
 * `z.enum` takes; the set's type is `keyof typeof LABELS`. A key must not be a whole number ('7'):
 * JavaScript lists those first, whatever the order they were written in.
 */
export function keysOf<Labels extends Record<string, unknown>>(
  labels: Labels,
): readonly [keyof Labels & string, ...(keyof Labels & string)[]] {
  return Object.keys(labels) as [keyof Labels & string, ...(keyof Labels & string)[]];
}
