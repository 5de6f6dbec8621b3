import { Field, Input, type InputProps } from './ui/input';

/**
 * The account's e-mail on sign-in and on set-password: the same name and autocomplete on both, so a
 * password manager files the password set by a link under it and offers it at sign-in.
 */
export function AccountEmailField(props: Omit<InputProps, 'type' | 'name' | 'autoComplete'>) {
  return (
    <Field label="E-mail">
      {(control) => <Input {...control} type="email" name="email" autoComplete="username" {...props} />}
    </Field>
  );
}
