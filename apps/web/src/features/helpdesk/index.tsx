import { useState, type ChangeEvent } from 'react';
import {
  ITEM_SEARCH_DEBOUNCE_MS,
  TICKET_CATEGORIES,
  TICKET_CATEGORY_LABELS,
  TICKET_STATE_LABELS,
  TICKET_STATES,
  type TicketThread,
} from '@guardian/contract';
import { TicketWorkspace } from '../../components/ticket-workspace';
import { Field, SearchInput, Select } from '../../components/ui/input';
import { PageHeader } from '../../components/ui/page-header';
import { EmptyCard } from '../../components/ui/query-list';
import { useToast } from '../../components/ui/toast';
import { actionErrorMessage } from '../../lib/api';
import { useSession } from '../../lib/session';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import type { TicketFilters } from '../../api/tickets/keys';
import { useAssignTicketMutation } from '../../api/tickets/ticket-mutations';
import { useTicketAssigneesQuery } from '../../api/tickets/ticket-assignees-query';

const TITLE = 'Helpdesk';

/** The admin menu's Helpdesk (/admin/helpdesk): everyone's tickets, to assign, answer and close. */
export default function HelpdeskScreen() {
  const session = useSession();
  if (!session.isAdmin) {
    // The server answers 403 to anyone else; the page says so without asking.
    return (
      <>
        <PageHeader title={TITLE} />
        <EmptyCard>Only administrators answer tickets.</EmptyCard>
      </>
    );
  }
  return <HelpdeskView />;
}

function HelpdeskView() {
  // The queue opens on what waits for support.
  const [filters, setFilters] = useState<Omit<TicketFilters, 'person'>>({
    state: 'open',
    category: '',
    assignee: '',
  });
  const [person, setPerson] = useState('');
  const debouncedPerson = useDebouncedValue(person.trim(), ITEM_SEARCH_DEBOUNCE_MS);
  const filter = (key: keyof typeof filters) => ({
    value: filters[key],
    onChange: (event: ChangeEvent<HTMLSelectElement>) =>
      setFilters((old) => ({ ...old, [key]: event.target.value })),
  });

  return (
    <>
      <PageHeader
        title={TITLE}
        description="Everyone's support tickets, most recently active first. Assign one, answer it (its person is told) and close it."
      />
      <form
        aria-label="Filter tickets"
        className="mb-4 grid gap-3 sm:grid-cols-2 xl:grid-cols-4"
        onSubmit={(event) => event.preventDefault()}
      >
        <Field label="State">
          {(control) => (
            <Select {...control} {...filter('state')}>
              <option value="">Any state</option>
              {TICKET_STATES.map((state) => (
                <option key={state} value={state}>
                  {TICKET_STATE_LABELS[state]}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field label="Category">
          {(control) => (
            <Select {...control} {...filter('category')}>
              <option value="">Every category</option>
              {TICKET_CATEGORIES.map((category) => (
                <option key={category} value={category}>
                  {TICKET_CATEGORY_LABELS[category]}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field label="Assigned to">
          {(control) => (
            <Select {...control} {...filter('assignee')}>
              <option value="">Anyone or nobody</option>
              <option value="me">Me</option>
              <option value="none">Nobody</option>
            </Select>
          )}
        </Field>
        <Field label="Person">
          {(control) => (
            <SearchInput
              {...control}
              placeholder="Part of an e-mail"
              maxLength={254}
              value={person}
              onSearch={setPerson}
            />
          )}
        </Field>
      </form>
      <TicketWorkspace
        side="support"
        filters={{ ...filters, person: debouncedPerson }}
        empty="No tickets match these filters."
        threadActions={(thread) => <AssignSelect thread={thread} />}
      />
    </>
  );
}

/** Who the ticket is assigned to: any active administrator, or nobody. */
function AssignSelect({ thread }: { thread: TicketThread }) {
  const toast = useToast();
  const assignees = useTicketAssigneesQuery();
  const assign = useAssignTicketMutation();
  const choices = assignees.data?.assignees ?? (thread.assignee ? [thread.assignee] : []);
  return (
    <label className="flex items-center gap-2 text-sm font-medium text-ink">
      Assignee
      <Select
        className="h-9 w-auto max-w-[14rem]"
        value={thread.assignee?.id ?? ''}
        disabled={assign.isPending || assignees.isPending}
        onChange={(event) =>
          assign.mutate(
            { id: thread.id, assigneeId: event.target.value ? Number(event.target.value) : null },
            {
              onSuccess: (saved) =>
                toast.success(
                  saved.assignee ? `Assigned to ${saved.assignee.email}.` : 'Assigned to nobody.',
                ),
              onError: (error) => toast.error(actionErrorMessage(error, 'Failed to assign the ticket.')),
            },
          )
        }
      >
        <option value="">Nobody</option>
        {choices.map((admin) => (
          <option key={admin.id} value={admin.id}>
            {admin.email}
          </option>
        ))}
      </Select>
    </label>
  );
}
