import type { ReactNode } from 'react';
import { Tooltip as RadixTooltip } from 'radix-ui';

interface TooltipProps {
  content: ReactNode;
  /** One focusable element (a button, a link, or a span with tabIndex={0}) the tooltip describes. */
  children: ReactNode;
  side?: 'top' | 'right' | 'bottom' | 'left';
}

/** `<Tooltip content={rule.filter.expression}><span tabIndex={0}>{cut}</span></Tooltip>` */
export function Tooltip({ content, children, side = 'top' }: TooltipProps) {
  return (
    <RadixTooltip.Provider delayDuration={250}>
      <RadixTooltip.Root>
        <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
        <RadixTooltip.Portal>
          <RadixTooltip.Content
            side={side}
            sideOffset={6}
            collisionPadding={8}
            className="z-[70] max-w-sm animate-fade-in rounded-control bg-ink px-3 py-2 text-xs break-words text-white shadow-lg"
          >
            {content}
            <RadixTooltip.Arrow className="fill-ink" />
          </RadixTooltip.Content>
        </RadixTooltip.Portal>
      </RadixTooltip.Root>
    </RadixTooltip.Provider>
  );
}
