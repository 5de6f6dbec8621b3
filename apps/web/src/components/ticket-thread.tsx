import { useState, type FormEvent, type ReactNode } from 'react';
import { CheckCheck, Send } from 'lucide-react';
import {
  TICKET_CATEGORY_LABELS,
  TICKET_MESSAGE_MAX,
  TICKET_STATE_LABELS,
  type Ticket,
  type TicketState,
  type TicketThread,
} from '@guardian/contract';
import { Badge, type BadgeTone } from './ui/badge';
import { Button } from './ui/button';
import { Field, Textarea } from './ui/input';

export const TICKET_STATE_TONES: Record<TicketState, BadgeTone> = {
  open: 'yellow',
  answered: 'blue',
  closed: 'grey',
};

export const ticketTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/** A ticket's state as a badge. */
export function TicketStateBadge({ state }: { state: TicketState }) {
  return <Badge tone={TICKET_STATE_TONES[state]}>{TICKET_STATE_LABELS[state]}</Badge>;
}

/** One row of a list of tickets: subject, state, category, when it was last active (a button that opens it). */
export function TicketRow({
  ticket,
  selected,
  onOpen,
  showPerson,
}: {
  ticket: Ticket;
  selected: boolean;
  onOpen: () => void;
  showPerson?: boolean;
}) {
  return (
    <button
      type="button"
      aria-current={selected || undefined}
      onClick={onOpen}
      className="grid w-full gap-1 px-4 py-3 text-left text-sm hover:bg-canvas focus-visible:outline-2 focus-visible:outline-brand aria-[current]:bg-brand-soft"
    >
      <span className="font-medium break-words text-ink">{ticket.subject}</span>
      <span className="flex flex-wrap items-center gap-2 text-xs text-ink-muted">
        <TicketStateBadge state={ticket.state} />
        {TICKET_CATEGORY_LABELS[ticket.category]}
        {showPerson && <span className="break-all">{ticket.person.email}</span>}
        <time dateTime={ticket.updated_at}>{ticketTime.format(new Date(ticket.updated_at))}</time>
      </span>
    </button>
  );
}

/**
 * A ticket's thread, oldest first, with the reply form and Close. Messages are plain text: shown as
 * text (React escapes it), line breaks kept, never read as HTML.
 */
export function TicketThreadView({
  thread,
  replying,
  closing,
  onReply,
  onClose,
  actions,
}: {
  thread: TicketThread;
  replying: boolean;
  closing: boolean;
  /** Sends the reply; resolves once it is saved (the box then empties). */
  onReply: (message: string) => Promise<unknown>;
  onClose: () => void;
  /** More controls beside Close (the Helpdesk's assign). */
  actions?: ReactNode;
}) {
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const closed = thread.state === 'closed';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = message.trim();
    if (!text) return setError('Write a message first.');
    if (text.length > TICKET_MESSAGE_MAX)
      return setError(`A message must be at most ${TICKET_MESSAGE_MAX.toLocaleString('en-US')} characters.`);
    setError(null);
    void onReply(text).then(
      () => setMessage(''),
      () => undefined,
    );
  };

  return (
    <article
      aria-label={`Ticket: ${thread.subject}`}
      className="rounded-card border border-line bg-surface shadow-xs"
    >
      <header className="flex flex-wrap items-start justify-between gap-3 border-b border-line px-4 py-3">
        <div className="min-w-0 space-y-1">
          <h2 className="text-lg font-semibold break-words text-ink">{thread.subject}</h2>
          <p className="flex flex-wrap items-center gap-2 text-xs text-ink-muted">
            <TicketStateBadge state={thread.state} />
            {TICKET_CATEGORY_LABELS[thread.category]} · opened by{' '}
            <span className="break-all">{thread.person.email}</span>
            {thread.assignee && (
              <>
                {' '}
                · assigned to <span className="break-all">{thread.assignee.email}</span>
              </>
            )}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {actions}
          {!closed && (
            <Button
              variant="secondary"
              size="sm"
              icon={<CheckCheck aria-hidden="true" className="size-4" />}
              loading={closing}
              onClick={onClose}
            >
              Close ticket
            </Button>
          )}
        </div>
      </header>
      <ol aria-label="Messages" className="divide-y divide-line">
        {thread.messages.map((entry) => (
          <li key={entry.id} className={entry.from === 'support' ? 'bg-brand-soft px-4 py-3' : 'px-4 py-3'}>
            <p className="mb-1 flex flex-wrap gap-x-2 text-xs text-ink-muted">
              <span className="font-medium text-ink">{entry.from === 'support' ? 'Support' : 'Person'}</span>
              <span className="break-all">{entry.author_email}</span>
              <time dateTime={entry.created_at}>{ticketTime.format(new Date(entry.created_at))}</time>
            </p>
            <p className="text-sm break-words whitespace-pre-wrap text-ink">{entry.body}</p>
          </li>
        ))}
      </ol>
      {closed ? (
        <p className="border-t border-line px-4 py-3 text-sm text-ink-muted">
          This ticket is closed: it takes no more messages.
        </p>
      ) : (
        <form onSubmit={submit} className="space-y-3 border-t border-line px-4 py-3" aria-label="Reply">
          <Field
            label="Reply"
            error={error}
            hint={`${message.length.toLocaleString('en-US')} of ${TICKET_MESSAGE_MAX.toLocaleString('en-US')} characters. Plain text: line breaks are kept.`}
          >
            {(control) => (
              <Textarea
                {...control}
                value={message}
                maxLength={TICKET_MESSAGE_MAX}
                onChange={(event) => setMessage(event.target.value)}
              />
            )}
          </Field>
          <Button type="submit" icon={<Send aria-hidden="true" className="size-4" />} loading={replying}>
            Send reply
          </Button>
        </form>
      )}
    </article>
  );
}
