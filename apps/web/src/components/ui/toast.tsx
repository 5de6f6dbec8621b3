import type { ReactNode } from 'react';
import { createContext, use, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { clsx } from 'clsx';
import { CheckCircle2, X, XCircle } from 'lucide-react';
import { TOAST_DURATION_MS } from '@guardian/contract';
import { setOutcomeHandler } from '../../lib/api';
import { getToken } from '../../lib/auth-token';

type ToastKind = 'success' | 'error';

/** A button in the toast, e.g. Restore after a destructive action. */
export interface ToastAction {
  label: string;
  onClick: () => void;
}

interface ToastEntry {
  id: number;
  kind: ToastKind;
  message: string;
  action?: ToastAction;
}

export interface ToastApi {
  success: (message: string, options?: { action?: ToastAction }) => void;
  error: (message: string) => void;
}

/** A toast that offers an action stays long enough to reach it, by mouse or by keyboard. */
export const TOAST_WITH_ACTION_DURATION_MS = 10_000;

const ToastContext = createContext<ToastApi | null>(null);

/** The one toaster: bottom right, each toast gone after TOAST_DURATION_MS (spec section 9). */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastEntry[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const dismiss = useCallback((id: number) => {
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
    setToasts((current) => current.filter((toast) => toast.id !== id));
  }, []);

  const show = useCallback(
    (kind: ToastKind, message: string, action?: ToastAction) => {
      const id = nextId.current++;
      setToasts((current) => [...current, { id, kind, message, action }]);
      timers.current.set(
        id,
        setTimeout(() => dismiss(id), action ? TOAST_WITH_ACTION_DURATION_MS : TOAST_DURATION_MS),
      );
    },
    [dismiss],
  );

  // What the server found out after a write's answer from Cloudflare was lost: the action's own toast
  // says it worked; this one says how Guardian knows.
  useEffect(() => {
    setOutcomeHandler((message) => show('success', message));
    return () => setOutcomeHandler(() => undefined);
  }, [show]);

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((timer) => clearTimeout(timer));
  }, []);

  const api = useMemo<ToastApi>(
    () => ({
      success: (message, options) => show('success', message, options?.action),
      // A call refused because the session ended has already sent the person to /login, which says
      // why: an error toast about the action would only follow them there.
      error: (message) => void (getToken() !== null && show('error', message)),
    }),
    [show],
  );

  return (
    <ToastContext value={api}>
      {children}
      <div
        aria-live="polite"
        aria-relevant="additions"
        className="pointer-events-none fixed right-4 bottom-4 z-[60] flex w-[calc(100vw-2rem)] max-w-sm flex-col gap-2"
      >
        {toasts.map((toast) => (
          <div
            key={toast.id}
            role={toast.kind === 'error' ? 'alert' : 'status'}
            className={clsx(
              'pointer-events-auto flex animate-toast-in items-start gap-3 rounded-card px-4 py-3 text-sm font-medium text-white shadow-lg',
              toast.kind === 'success' ? 'bg-success' : 'bg-danger',
            )}
          >
            {toast.kind === 'success' ? (
              <CheckCircle2 aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            ) : (
              <XCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            )}
            <p className="min-w-0 flex-1 break-words">{toast.message}</p>
            {toast.action && (
              <button
                type="button"
                onClick={() => {
                  dismiss(toast.id);
                  toast.action!.onClick();
                }}
                className="-my-1 shrink-0 rounded px-2 py-1 font-semibold underline underline-offset-2 hover:bg-white/15 focus-visible:outline-white"
              >
                {toast.action.label}
              </button>
            )}
            <button
              type="button"
              onClick={() => dismiss(toast.id)}
              className="-m-1 rounded p-1 text-white/85 hover:text-white focus-visible:outline-white"
              aria-label="Dismiss"
            >
              <X aria-hidden="true" className="size-4" />
            </button>
          </div>
        ))}
      </div>
    </ToastContext>
  );
}

/** `const toast = useToast(); toast.success('Page rule added successfully!')` */
export function useToast(): ToastApi {
  const toast = use(ToastContext);
  if (!toast) throw new Error('useToast needs a ToastProvider above it.');
  return toast;
}
