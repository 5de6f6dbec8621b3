import { useEffect, useRef } from 'react';
import {
  useForm,
  type DefaultValues,
  type FieldPath,
  type FieldValues,
  type Resolver,
  type SubmitHandler,
} from 'react-hook-form';
import { ApiError } from './api';

/** The part of a TanStack mutation the form needs: whether its last save failed, and how to forget that. */
interface Save {
  isError: boolean;
  error: unknown;
  reset: () => void;
}

/** A TanStack mutation whose variables are the form's request. */
interface RequestSave<Request, Result> {
  mutate: (request: Request, options: { onSuccess: (result: Result) => void }) => void;
  isPending: boolean;
}

interface DialogFormOptions<Values extends FieldValues, Output> {
  /** `zodResolver(contractSchema)`, or a resolver that shapes the fields into the contract's request first. */
  resolver: Resolver<Values, unknown, Output>;
  defaultValues: DefaultValues<NoInfer<Values>>;
  /** The mutations the dialog saves with: their error is shown until the person edits or submits again. */
  saves: readonly Save[];
  /**
   * The form field a field of the request is shown on, for a dialog whose fields are not the request's
   * (e.g. a page rule's `targets.0.constraint.value` is its URL pattern); by default the same path.
   */
  fieldOf?: (requestField: string) => string;
}

/**
 * The dialogs' one form pattern: react-hook-form with a resolver from the contract's schema (see the
 * README's "Forms"). Nothing is checked before the first submit; after it every change re-checks, so a
 * field's message goes as soon as the field holds a valid value. A failed save's message goes when the
 * person edits any field or submits again: it never stands beside messages about newer input.
 * Imported by lazy screen chunks only, so react-hook-form stays out of the login page.
 */
export function useDialogForm<Values extends FieldValues, Output = Values>({
  resolver,
  defaultValues,
  saves,
  fieldOf = (requestField) => requestField,
}: DialogFormOptions<Values, Output>) {
  const form = useForm<Values, unknown, Output>({
    resolver,
    defaultValues,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  // Read by the change subscription and the submit handler, which outlive the render they were made in.
  const latestSaves = useRef(saves);
  const latestFieldOf = useRef(fieldOf);
  useEffect(() => {
    latestSaves.current = saves;
    latestFieldOf.current = fieldOf;
  });

  const forgetFailedSave = () => {
    for (const save of latestSaves.current) if (save.isError) save.reset();
  };

  useEffect(
    () => form.subscribe({ formState: { values: true }, callback: () => forgetFailedSave() }),
    [form],
  );

  /** For `<Dialog onSubmit>`: forgets a failed save, checks the fields, and calls `onValid` with the request. */
  // A refusal by the server marks the fields it names (`errors[].field`), beside the dialog's banner.
  const refusal = saves.find((save) => save.isError)?.error;
  useEffect(() => {
    if (!(refusal instanceof ApiError)) return;
    const values = form.getValues() as Record<string, unknown>;
    for (const { field: requestField, message } of refusal.body?.errors ?? []) {
      const field = requestField ? latestFieldOf.current(requestField) : undefined;
      if (field && field.split('.')[0]! in values) {
        form.setError(field as FieldPath<Values>, { type: 'server', message });
      }
    }
  }, [refusal, form]);

  const submitWith = (onValid: SubmitHandler<Output>) => (event?: { preventDefault(): void }) => {
    forgetFailedSave();
    return form.handleSubmit(onValid)(event as Parameters<ReturnType<typeof form.handleSubmit>>[0]);
  };

  /**
   * For a `FormDialog` whose checked request goes to one mutation as it is:
   * `<FormDialog {...form.submitTo(addAccount, onAdded)}>` submits with it and spins while it runs.
   */
  const submitTo = <Result>(save: RequestSave<Output, Result>, onSaved: (result: Result) => void) => ({
    onSubmit: submitWith((request) => save.mutate(request, { onSuccess: onSaved })),
    saving: save.isPending,
  });

  return { ...form, submitWith, submitTo };
}
