import { useState } from 'react';
import {
  ITEM_EXPIRY_LABELS,
  ITEM_EXPIRY_PRESETS,
  type ItemExpiry,
  type ItemExpiryPreset,
} from '@guardian/contract';
import { Field, Input, Select } from '../../../components/ui/input';

type Choice = ItemExpiryPreset | 'date';

const isPreset = (value: string): value is ItemExpiryPreset =>
  (ITEM_EXPIRY_PRESETS as readonly string[]).includes(value);

/** A date as a datetime-local input shows it: the reader's local time, to the minute. */
function localInputValue(date: Date): string {
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** The datetime-local text as an ISO instant, or '' when it is not a date. */
function isoOf(text: string): string {
  const date = new Date(text);
  return text === '' || Number.isNaN(date.getTime()) ? '' : date.toISOString();
}

interface ItemExpiryFieldProps {
  /** The choice as the contract's itemExpirySchema takes it ('' while a date is being picked). */
  value: ItemExpiry | '';
  onChange: (value: ItemExpiry | '') => void;
  /** The form's message for the value (itemExpirySchema's). */
  error?: string;
  label?: string;
  disabled?: boolean;
}

/**
 * How long an item stays (issue 15): Never, 1 hour, 1 day, 7 days, 30 days, or until a date, after
 * which Guardian removes it at Cloudflare. The Add and Import dialogs and an item's detail use it, with
 * the contract's itemExpirySchema checking the value.
 */
export function ItemExpiryField({
  value,
  onChange,
  error,
  label = 'Expires',
  disabled,
}: ItemExpiryFieldProps) {
  const [choice, setChoice] = useState<Choice>(value === '' ? 'date' : isPreset(value) ? value : 'date');
  const [dateText, setDateText] = useState(() =>
    value !== '' && !isPreset(value) ? localInputValue(new Date(value)) : '',
  );
  const shownError =
    error && choice === 'date' && dateText === '' ? 'Choose the date and time it expires.' : error;
  return (
    <div className="space-y-2">
      <Field label={label} error={choice === 'date' ? undefined : shownError}>
        {(control) => (
          <Select
            {...control}
            value={choice}
            disabled={disabled}
            onChange={(event) => {
              const next = event.target.value as Choice;
              setChoice(next);
              onChange(next === 'date' ? isoOf(dateText) : next);
            }}
          >
            {ITEM_EXPIRY_PRESETS.map((preset) => (
              <option key={preset} value={preset}>
                {ITEM_EXPIRY_LABELS[preset]}
              </option>
            ))}
            <option value="date">On a date...</option>
          </Select>
        )}
      </Field>
      {choice === 'date' && (
        <Field label="Expiry date and time" required error={shownError}>
          {(control) => (
            <Input
              {...control}
              type="datetime-local"
              value={dateText}
              disabled={disabled}
              min={localInputValue(new Date())}
              onChange={(event) => {
                setDateText(event.target.value);
                onChange(isoOf(event.target.value));
              }}
            />
          )}
        </Field>
      )}
    </div>
  );
}

const expiryFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The Expires column: "Never", or the date in the reader's locale. */
export function formatExpiry(expiresAt: string | null): string {
  if (expiresAt === null) return 'Never';
  const date = new Date(expiresAt);
  return Number.isNaN(date.getTime()) ? expiresAt : expiryFormat.format(date);
}
