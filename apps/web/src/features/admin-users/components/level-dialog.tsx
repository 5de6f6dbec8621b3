import type { User } from '@guardian/contract';
import { FormDialog } from '../../../components/ui/form-dialog';
import { ErrorMessage } from '../../../components/ui/error-message';
import { useToast } from '../../../components/ui/toast';
import { useSetUserLevelMutation } from '../../../api/users/user-level-mutation';
import { actionErrorMessage } from '../../../lib/api';
import { useDialogForm } from '../../../lib/use-dialog-form';
import { levelLabel, levelResolver } from '../lib/user-forms';
import { LevelField } from './level-field';

interface LevelDialogProps {
  user: User;
  /** The signed-in administrator themselves: a change signs them out. */
  isSelf: boolean;
  onClose: () => void;
}

/** Change a user's level. Their sessions and API keys end; the last active administrator is refused in words. */
export function LevelDialog({ user, isSelf, onClose }: LevelDialogProps) {
  const setLevel = useSetUserLevelMutation();
  const toast = useToast();
  const form = useDialogForm({
    resolver: levelResolver,
    defaultValues: { level: String(user.level) },
    saves: [setLevel],
  });
  const { errors } = form.formState;

  const submit = form.submitWith(({ level }) => {
    if (level === user.level) return onClose();
    setLevel.mutate(
      { id: user.id, level },
      {
        onSuccess: (saved) => {
          toast.success(`Level of ${saved.email} changed to ${saved.level}.`);
          onClose();
        },
      },
    );
  });

  return (
    <FormDialog
      title="Change Level"
      description={
        <>
          <span className="break-all">{user.email}</span> is {levelLabel(user.level).toLowerCase()}. A change
          signs them out everywhere{isSelf ? ': that is you, so you sign in again' : ''}, and their API keys
          are revoked.
        </>
      }
      onClose={onClose}
      onSubmit={submit}
      saving={setLevel.isPending}
      submitLabel="Save Level"
    >
      <LevelField field={form.register('level')} error={errors.level?.message} />
      {setLevel.isError && (
        <ErrorMessage>{actionErrorMessage(setLevel.error, 'Failed to change the level.')}</ErrorMessage>
      )}
    </FormDialog>
  );
}
