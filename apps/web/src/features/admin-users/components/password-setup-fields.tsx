import { useFormContext } from 'react-hook-form';
import { Wand2 } from 'lucide-react';
import { PASSWORD_LINK_TTL_HOURS, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@guardian/contract';
import { Button } from '../../../components/ui/button';
import { Field, Input } from '../../../components/ui/input';
import { generatePassword } from '../lib/generate-password';
import type { PasswordMethod, PasswordSetupForm } from '../lib/user-forms';

/** The words of the part: a new user's first password, or a reset's new one. */
const WORDS = {
  first: { legend: 'First sign-in', passwordChoice: 'Set a first password', passwordLabel: 'First password' },
  new: { legend: 'New password', passwordChoice: 'Set a new password', passwordLabel: 'New password' },
};

const choices = (passwordChoice: string): { value: PasswordMethod; label: string; hint: string }[] => [
  {
    value: 'password',
    label: passwordChoice,
    hint: 'You pass it on; it is shown once more after saving.',
  },
  {
    value: 'link',
    label: 'Create a one-time set-password link',
    hint: `The person chooses their own password with it. It works once, for ${PASSWORD_LINK_TTL_HOURS} hours, and is shown once.`,
  },
];

/**
 * How a person gets a password: one the administrator types (or generates), or a one-time link. The
 * "password or link" part of the Add User and Reset Password dialogs: the fields `password_setup.*` of
 * the dialog's form, inside its `<FormProvider>`.
 */
export function PasswordSetupFields({ password }: { password: keyof typeof WORDS }) {
  const { legend, passwordChoice, passwordLabel } = WORDS[password];
  const form = useFormContext<{ password_setup: PasswordSetupForm }>();
  const method = form.watch('password_setup.method');
  return (
    <>
      <fieldset className="space-y-2">
        <legend className="mb-1.5 text-sm font-medium text-ink">{legend}</legend>
        {choices(passwordChoice).map((choice) => (
          <label
            key={choice.value}
            className="flex cursor-pointer items-start gap-3 rounded-control border border-line px-3 py-2.5 has-checked:border-brand has-checked:bg-brand-soft"
          >
            <input
              type="radio"
              value={choice.value}
              className="mt-0.5 size-4 accent-brand"
              {...form.register('password_setup.method')}
            />
            <span className="min-w-0">
              <span className="block text-sm font-medium text-ink">{choice.label}</span>
              <span className="block text-xs text-ink-muted">{choice.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {method === 'password' && (
        <Field
          label={passwordLabel}
          required
          error={form.formState.errors.password_setup?.password?.message}
          hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        >
          {(control) => (
            <div className="flex gap-2">
              <Input
                {...control}
                {...form.register('password_setup.password')}
                type="text"
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                maxLength={PASSWORD_MAX_LENGTH}
                className="font-mono"
              />
              <Button
                variant="secondary"
                icon={<Wand2 aria-hidden="true" className="size-4" />}
                onClick={() =>
                  form.setValue('password_setup.password', generatePassword(), {
                    shouldValidate: form.formState.isSubmitted,
                  })
                }
              >
                Generate
              </Button>
            </div>
          )}
        </Field>
      )}
    </>
  );
}
