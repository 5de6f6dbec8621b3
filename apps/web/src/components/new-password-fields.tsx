import type { FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';
import { PASSWORD_MIN_LENGTH } from '@guardian/contract';
import { Field, Input } from './ui/input';

interface NewPasswordFieldsProps<T extends FieldValues> {
  /** The form the two fields are registered in; their messages are its errors. */
  form: Pick<UseFormReturn<T>, 'register' | 'getFieldState' | 'formState'>;
  /** The field of the new password, and of the same typed again. */
  password: FieldPath<T>;
  confirmation: FieldPath<T>;
}

/** A new password, typed twice; a password manager offers to make one up (autoComplete new-password). */
export function NewPasswordFields<T extends FieldValues>({
  form,
  password,
  confirmation,
}: NewPasswordFieldsProps<T>) {
  const errorOf = (field: FieldPath<T>) => form.getFieldState(field, form.formState).error?.message;
  return (
    <>
      <Field
        label="New password"
        required
        error={errorOf(password)}
        hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
      >
        {(control) => (
          <Input {...control} {...form.register(password)} type="password" autoComplete="new-password" />
        )}
      </Field>
      <Field label="Confirm new password" required error={errorOf(confirmation)}>
        {(control) => (
          <Input {...control} {...form.register(confirmation)} type="password" autoComplete="new-password" />
        )}
      </Field>
    </>
  );
}
