/** The shape of a zod issue that matters here; a type only, so src/lib never loads zod itself. */
interface Issue {
  path: PropertyKey[];
  message: string;
}

/** The first message per top-level field of a failed schema parse, for a form's per-field errors. */
export function fieldErrorsOf<Field extends string>(
  issues: readonly Issue[],
): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  for (const issue of issues) {
    const field = issue.path[0] as Field;
    errors[field] ??= issue.message;
  }
  return errors;
}
