import { useState } from 'react';
import { DNS_RECORD_TYPES, dnsRecordInputSchema, type DnsRecordType } from '@guardian/contract';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { Dialog } from '../../../components/ui/dialog';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Field, Input, Select, Textarea } from '../../../components/ui/input';
import { actionErrorMessage } from '../../../lib/api';
import { useCreateDnsRecordMutation } from '../../../api/dns-records/dns-record-create-mutation';
import { useUpdateDnsRecordMutation } from '../../../api/dns-records/dns-record-update-mutation';
import {
  CONTENT_PLACEHOLDERS,
  formOf,
  hasPriority,
  isProxiable,
  NEW_RECORD_FORM,
  toRecordInput,
  ttlChoices,
  type DnsRecordForm,
  type EditableDnsRecord,
} from './dns-record-form';
import { fieldErrorsOf } from '../../../lib/field-errors';

type FieldErrors = Partial<Record<keyof DnsRecordForm, string>>;

interface DnsRecordDialogProps {
  zoneId: string;
  /** The record to edit; absent to add one. */
  record?: EditableDnsRecord;
  onClose: () => void;
}

/** Add Record / edit a record. Checked with the server's own schema first. Mount it only while open. */
export function DnsRecordDialog({ zoneId, record, onClose }: DnsRecordDialogProps) {
  const createRecord = useCreateDnsRecordMutation(zoneId);
  const updateRecord = useUpdateDnsRecordMutation(zoneId);
  const save = record ? updateRecord : createRecord;
  const [form, setForm] = useState<DnsRecordForm>(() => (record ? formOf(record) : NEW_RECORD_FORM));
  const [errors, setErrors] = useState<FieldErrors>({});

  const set = <K extends keyof DnsRecordForm>(field: K, value: DnsRecordForm[K]) =>
    setForm((current) => ({ ...current, [field]: value }));

  const submit = () => {
    const input = toRecordInput(form);
    const parsed = dnsRecordInputSchema.safeParse(input);
    if (!parsed.success) {
      setErrors(fieldErrorsOf<keyof DnsRecordForm>(parsed.error.issues));
      return;
    }
    setErrors({});
    const done = { onSuccess: onClose };
    if (record) updateRecord.mutate({ recordId: record.id, record: input }, done);
    else createRecord.mutate(input, done);
  };

  const busyLabel = record ? 'Saving...' : 'Adding...';
  const idleLabel = record ? 'Save Changes' : 'Add Record';

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={record ? 'Edit DNS Record' : 'Add DNS Record'}
      busy={save.isPending}
      onSubmit={submit}
      footer={
        <>
          <Button variant="secondary" disabled={save.isPending} onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {save.isPending ? busyLabel : idleLabel}
          </Button>
        </>
      }
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Type" required>
          {(control) => (
            <Select
              {...control}
              value={form.type}
              onChange={(event) => set('type', event.target.value as DnsRecordType)}
            >
              {DNS_RECORD_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field label="TTL">
          {(control) => (
            <Select
              {...control}
              value={form.ttl}
              onChange={(event) => set('ttl', Number(event.target.value))}
            >
              {ttlChoices(form.ttl).map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </Select>
          )}
        </Field>
      </div>
      <Field
        label="Name"
        required
        error={errors.name}
        hint="Use @ for the zone itself, or a name such as www."
      >
        {(control) => (
          <Input
            {...control}
            value={form.name}
            placeholder="@"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            onChange={(event) => set('name', event.target.value)}
          />
        )}
      </Field>
      <Field
        label={form.type === 'SRV' ? 'Content (weight port target)' : 'Content'}
        required
        error={errors.content}
        hint={
          form.type === 'SRV'
            ? 'Weight, port and target host, separated by spaces; the priority goes below.'
            : undefined
        }
      >
        {(control) =>
          form.type === 'TXT' ? (
            <Textarea
              {...control}
              value={form.content}
              placeholder={CONTENT_PLACEHOLDERS.TXT}
              spellCheck={false}
              onChange={(event) => set('content', event.target.value)}
            />
          ) : (
            <Input
              {...control}
              value={form.content}
              placeholder={CONTENT_PLACEHOLDERS[form.type]}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              onChange={(event) => set('content', event.target.value)}
            />
          )
        }
      </Field>
      {hasPriority(form.type) && (
        <Field label="Priority" required error={errors.priority}>
          {(control) => (
            <Input
              {...control}
              value={form.priority}
              inputMode="numeric"
              onChange={(event) => set('priority', event.target.value)}
            />
          )}
        </Field>
      )}
      {isProxiable(form.type) && (
        <Checkbox
          label="Proxied"
          checked={form.proxied}
          onChange={(event) => set('proxied', event.target.checked)}
        />
      )}
      <Field label="Comment" error={errors.comment}>
        {(control) => (
          <Input {...control} value={form.comment} onChange={(event) => set('comment', event.target.value)} />
        )}
      </Field>
      {errors.ttl && <ErrorMessage>{errors.ttl}</ErrorMessage>}
      {save.isError && (
        <ErrorMessage>{actionErrorMessage(save.error, 'Failed to save DNS record.')}</ErrorMessage>
      )}
    </Dialog>
  );
}
