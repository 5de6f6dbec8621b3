import type { ReactNode } from 'react';
import { createContext, use, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { clsx } from 'clsx';
import { CheckCircle2, X, XCircle } from 'lucide-react';
import { TOAST_DURATION_MS } from '@guardian/contract';
import { getToken } from '../../lib/auth-token';

type ToastKind = 'success' | 'error';

interface ToastEntry {
  id: number;
  kind: ToastKind;
  message: string;
}

export interface ToastApi {
  success: (message: string) => void;
  error: (message: string) => void;
}

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
    (kind: ToastKind, message: string) => {
      const id = nextId.current++;
      setToasts((current) => [...current, { id, kind, message }]);
      timers.current.set(
        id,
        setTimeout(() => dismiss(id), TOAST_DURATION_MS),
      );
    },
    [dismiss],
  );

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((timer) => clearTimeout(timer));
  }, []);

  const api = useMemo<ToastApi>(
    () => ({
      success: (message) => show('success', message),
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
