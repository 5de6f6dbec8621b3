import { useState } from 'react';
import {
  TICKET_CATEGORIES,
  TICKET_CATEGORY_LABELS,
  TICKET_MESSAGE_MAX,
  TICKET_SUBJECT_MAX,
  TICKET_SUBJECT_MIN,
  type TicketCategory,
  type TicketThread,
} from '@guardian/contract';
import { ErrorMessage } from '../../../components/ui/error-message';
import { FormDialog } from '../../../components/ui/form-dialog';
import { Field, Input, Select, Textarea } from '../../../components/ui/input';
import { actionErrorMessage } from '../../../lib/api';
import { useOpenTicketMutation } from '../../../api/tickets/ticket-mutations';

/** Opens a ticket: subject, category and message, bounded as the server bounds them. */
export function NewTicketDialog({
  onClose,
  onOpened,
}: {
  onClose: () => void;
  onOpened: (ticket: TicketThread) => void;
}) {
  const open = useOpenTicketMutation();
  const [subject, setSubject] = useState('');
  const [category, setCategory] = useState<TicketCategory>('question');
  const [message, setMessage] = useState('');
  const [errors, setErrors] = useState<{ subject?: string; message?: string }>({});

  const submit = () => {
    const found = {
      subject:
        subject.trim().length < TICKET_SUBJECT_MIN
          ? `The subject must be at least ${TICKET_SUBJECT_MIN} characters.`
          : undefined,
      message: message.trim() ? undefined : 'A message is required.',
    };
    setErrors(found);
    if (found.subject || found.message) return;
    open.mutate({ subject: subject.trim(), category, message: message.trim() }, { onSuccess: onOpened });
  };

  return (
    <FormDialog
      title="New ticket"
      description="Write to the people who run Guardian. You get an alert when they answer."
      size="md"
      onClose={onClose}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      saving={open.isPending}
      submitLabel="Open ticket"
      savingLabel="Opening..."
    >
      <Field label="Subject" required error={errors.subject}>
        {(control) => (
          <Input
            {...control}
            value={subject}
            maxLength={TICKET_SUBJECT_MAX}
            onChange={(event) => setSubject(event.target.value)}
          />
        )}
      </Field>
      <Field label="Category" required>
        {(control) => (
          <Select
            {...control}
            value={category}
            onChange={(event) => setCategory(event.target.value as TicketCategory)}
          >
            {TICKET_CATEGORIES.map((entry) => (
              <option key={entry} value={entry}>
                {TICKET_CATEGORY_LABELS[entry]}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field
        label="Message"
        required
        error={errors.message}
        hint={`${message.length.toLocaleString('en-US')} of ${TICKET_MESSAGE_MAX.toLocaleString('en-US')} characters. Plain text: line breaks are kept.`}
      >
        {(control) => (
          <Textarea
            {...control}
            rows={6}
            value={message}
            maxLength={TICKET_MESSAGE_MAX}
            onChange={(event) => setMessage(event.target.value)}
          />
        )}
      </Field>
      {open.isError && (
        <ErrorMessage>{actionErrorMessage(open.error, 'Failed to open the ticket.')}</ErrorMessage>
      )}
    </FormDialog>
  );
}
