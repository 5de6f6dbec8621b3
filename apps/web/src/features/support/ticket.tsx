import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Plus } from 'lucide-react';
import { TICKET_STATE_LABELS, TICKET_STATES, type TicketState } from '@guardian/contract';
import { TICKET_PARAM, TicketWorkspace } from '../../components/ticket-workspace';
import { Button } from '../../components/ui/button';
import { Field, Select } from '../../components/ui/input';
import { PageHeader } from '../../components/ui/page-header';
import { useToast } from '../../components/ui/toast';
import { NewTicketDialog } from './components/new-ticket-dialog';

/** Help and Support > Ticket (/support/ticket): the person's tickets, to open, follow, reply to and close. */
export default function TicketScreen() {
  const toast = useToast();
  const [, setParams] = useSearchParams();
  const [state, setState] = useState<TicketState | ''>('');
  const [writing, setWriting] = useState(false);

  return (
    <>
      <PageHeader
        title="Ticket"
        description="Ask the people who run Guardian for help. Follow each ticket's thread here; an alert tells you when support answers."
        actions={
          <Button icon={<Plus aria-hidden="true" className="size-4" />} onClick={() => setWriting(true)}>
            New ticket
          </Button>
        }
      />
      <div className="mb-4 sm:max-w-xs">
        <Field label="State">
          {(control) => (
            <Select
              {...control}
              value={state}
              onChange={(event) => setState(event.target.value as TicketState | '')}
            >
              <option value="">Any state</option>
              {TICKET_STATES.map((entry) => (
                <option key={entry} value={entry}>
                  {TICKET_STATE_LABELS[entry]}
                </option>
              ))}
            </Select>
          )}
        </Field>
      </div>
      <TicketWorkspace
        side="person"
        filters={{ state, category: '', person: '', assignee: '' }}
        empty={state ? 'No tickets in this state.' : 'You have no tickets yet: New ticket writes to support.'}
      />
      {writing && (
        <NewTicketDialog
          onClose={() => setWriting(false)}
          onOpened={(ticket) => {
            setWriting(false);
            toast.success('Ticket opened: support is told.');
            setParams({ [TICKET_PARAM]: String(ticket.id) });
          }}
        />
      )}
    </>
  );
}
