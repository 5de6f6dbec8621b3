import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import {
  DNS_RECORD_TYPES,
  DNS_TTL_AUTO,
  dnsRecordInputSchema,
  type DnsRecordInput,
} from '@guardian/contract';
import { Checkbox } from '../../../components/ui/checkbox';
import { FormDialog } from '../../../components/ui/form-dialog';
import { ErrorMessage } from '../../../components/ui/error-message';
import { useToast } from '../../../components/ui/toast';
import { Field, Input, Select, Textarea } from '../../../components/ui/input';
import { useCreateDnsRecordMutation } from '../../../api/dns-records/dns-record-create-mutation';
import { useUpdateDnsRecordMutation } from '../../../api/dns-records/dns-record-update-mutation';
import { actionErrorMessage } from '../../../lib/api';
import { useDialogForm } from '../../../lib/use-dialog-form';
import {
  CONTENT_PLACEHOLDERS,
  formOf,
  hasPriority,
  isProxiable,
  isProxied,
  NEW_RECORD_FORM,
  toRecordInput,
  ttlChoices,
  type DnsRecordForm,
  type EditableDnsRecord,
} from './dns-record-form';

const checkRecord = zodResolver(dnsRecordInputSchema, undefined, { raw: true });

/**
 * Checks the body the dialog would send with the server's own schema; its fields are the form's own
 * names. The body goes as the person wrote it (the server trims), hence `raw`.
 */
const dnsRecordResolver: Resolver<DnsRecordForm, unknown, DnsRecordInput> = (form, context, options) =>
  checkRecord(toRecordInput(form), context, options as unknown as Parameters<typeof checkRecord>[2]);

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
  const toast = useToast();
  const form = useDialogForm({
    resolver: dnsRecordResolver,
    defaultValues: record ? formOf(record) : NEW_RECORD_FORM,
    saves: [createRecord, updateRecord],
  });
  const { errors } = form.formState;
  const type = form.watch('type');
  const proxied = isProxied({ type, proxied: form.watch('proxied') });

  const submit = form.submitWith((input) => {
    const done = (verb: string) => ({
      onSuccess: (saved: { name: string }) => {
        toast.success(`DNS record ${saved.name} ${verb}.`);
        onClose();
      },
    });
    if (record) updateRecord.mutate({ recordId: record.id, record: input }, done('saved'));
    else createRecord.mutate(input, done('added'));
  });

  const busyLabel = record ? 'Saving...' : 'Adding...';
  const idleLabel = record ? 'Save Changes' : 'Add Record';

  return (
    <FormDialog
      title={record ? 'Edit DNS Record' : 'Add DNS Record'}
      size="md"
      onClose={onClose}
      onSubmit={submit}
      saving={save.isPending}
      submitLabel={idleLabel}
      savingLabel={busyLabel}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Type" required>
          {(control) => (
            <Select {...control} {...form.register('type')}>
              {DNS_RECORD_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </Select>
          )}
        </Field>
        {/* As Cloudflare's dashboard: a proxied record's TTL is Cloudflare's (Auto), not a choice. */}
        <Field label="TTL" hint={proxied ? 'Auto while proxied.' : undefined}>
          {(control) =>
            proxied ? (
              // Its own key: React must not hand this select's element to the registered one.
              <Select key="auto-while-proxied" {...control} value={DNS_TTL_AUTO} disabled>
                <option value={DNS_TTL_AUTO}>Auto</option>
              </Select>
            ) : (
              <Select key="ttl" {...control} {...form.register('ttl', { setValueAs: Number })}>
                {ttlChoices(form.watch('ttl')).map((choice) => (
                  <option key={choice.value} value={choice.value}>
                    {choice.label}
                  </option>
                ))}
              </Select>
            )
          }
        </Field>
      </div>
      <Field
        label="Name"
        required
        error={errors.name?.message}
        hint="Use @ for the zone itself, or a name such as www."
      >
        {(control) => (
          <Input
            {...control}
            {...form.register('name')}
            placeholder="@"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
          />
        )}
      </Field>
      <Field
        label={type === 'SRV' ? 'Content (weight port target)' : 'Content'}
        required
        error={errors.content?.message}
        hint={
          type === 'SRV'
            ? 'Weight, port and target host, separated by spaces; the priority goes below.'
            : undefined
        }
      >
        {(control) =>
          type === 'TXT' ? (
            <Textarea
              {...control}
              {...form.register('content')}
              placeholder={CONTENT_PLACEHOLDERS.TXT}
              spellCheck={false}
            />
          ) : (
            <Input
              {...control}
              {...form.register('content')}
              placeholder={CONTENT_PLACEHOLDERS[type]}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
            />
          )
        }
      </Field>
      {hasPriority(type) && (
        <Field label="Priority" required error={errors.priority?.message}>
          {(control) => <Input {...control} {...form.register('priority')} inputMode="numeric" />}
        </Field>
      )}
      {isProxiable(type) && <Checkbox label="Proxied" {...form.register('proxied')} />}
      <Field label="Comment" error={errors.comment?.message}>
        {(control) => <Input {...control} {...form.register('comment')} />}
      </Field>
      {errors.ttl && <ErrorMessage>{errors.ttl.message}</ErrorMessage>}
      {save.isError && (
        <ErrorMessage>{actionErrorMessage(save.error, 'Failed to save DNS record.')}</ErrorMessage>
      )}
    </FormDialog>
  );
}
