import type { UseFormRegisterReturn } from 'react-hook-form';
import { USER_LEVEL_MAX } from '@guardian/contract';
import { Field, Input } from '../../../components/ui/input';

/** A user's level, of the Add User and Change Level dialogs: 0 is an administrator, any other a user. */
export function LevelField({ field, error }: { field: UseFormRegisterReturn; error?: string }) {
  return (
    <Field label="Level" required error={error} hint="0 is an administrator; any other level is a user.">
      {(control) => (
        <Input
          {...control}
          {...field}
          type="number"
          inputMode="numeric"
          min={0}
          max={USER_LEVEL_MAX}
          step={1}
          className="max-w-32"
        />
      )}
    </Field>
  );
}
