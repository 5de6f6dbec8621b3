import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import { z } from 'zod';
import {
  createUserRequestSchema,
  passwordSetupSchema,
  setUserLevelRequestSchema,
  type CreateUserRequest,
  type PasswordSetup,
  type SetUserLevelRequest,
} from '@guardian/contract';

export type PasswordMethod = PasswordSetup['method'];

/** The password part of a dialog: the chosen method, and the password typed when it is `password`. */
export interface PasswordSetupForm {
  method: PasswordMethod;
  password: string;
}

export interface CreateUserForm {
  email: string;
  /** Text until sent: an empty or non-numeric level is refused by the contract's own message. */
  level: string;
  password_setup: PasswordSetupForm;
}

export interface LevelForm {
  level: string;
}

export interface ResetPasswordForm {
  password_setup: PasswordSetupForm;
}

export const NEW_USER_FORM: CreateUserForm = {
  email: '',
  level: '1',
  password_setup: { method: 'password', password: '' },
};

export const NEW_PASSWORD_FORM: ResetPasswordForm = { password_setup: { method: 'link', password: '' } };

/** The level as a number; NaN for an empty or non-numeric text, which the schema refuses in words. */
export function levelOf(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text);
}

/** A link sends no password: the typed one (if any) is left out. */
export function passwordSetupOf(form: PasswordSetupForm): PasswordSetup {
  return form.method === 'link' ? { method: 'link' } : { method: 'password', password: form.password };
}

/**
 * Each dialog's fields are shaped into the request and checked with the server's own schema; the
 * fields are named after the request's paths (`password_setup.password`), so its messages land on them.
 */
function shapedResolver<Form extends object, Request>(
  schema: z.ZodType<Request, object>,
  toRequest: (form: Form) => object,
): Resolver<Form, unknown, Request> {
  const check = zodResolver(schema);
  return (form, context, options) =>
    check(toRequest(form), context, options as unknown as Parameters<typeof check>[2]) as ReturnType<
      Resolver<Form, unknown, Request>
    >;
}

export const createUserResolver = shapedResolver<CreateUserForm, CreateUserRequest>(
  createUserRequestSchema,
  (form) => ({
    email: form.email,
    level: levelOf(form.level),
    password_setup: passwordSetupOf(form.password_setup),
  }),
);

export const levelResolver = shapedResolver<LevelForm, SetUserLevelRequest>(
  setUserLevelRequestSchema,
  (form) => ({ level: levelOf(form.level) }),
);

const resetPasswordSchema = z.object({ password_setup: passwordSetupSchema });

export const resetPasswordResolver = shapedResolver<ResetPasswordForm, { password_setup: PasswordSetup }>(
  resetPasswordSchema,
  (form) => ({ password_setup: passwordSetupOf(form.password_setup) }),
);

/** A level in words: 0 is an administrator, any other level a user. */
export function levelLabel(level: number): string {
  return level === 0 ? 'Administrator' : `User (level ${level})`;
}
