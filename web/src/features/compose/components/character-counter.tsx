import { LIMITS } from '@pipit/contract';
import { cn } from '../../../lib/cn.ts';

/** Counting starts to show when this few characters are left. */
export const WARN_AT = 20;

/**
 * A ring that fills as the post grows; near the limit it shows the characters left, and past it
 * turns red and counts below zero.
 */
export function CharacterCounter({ remaining }: { remaining: number }) {
  const used = LIMITS.postMax - remaining;
  if (used <= 0) return null;
  const warn = remaining <= WARN_AT;
  const over = remaining < 0;
  const radius = warn ? 12 : 9;
  const circumference = 2 * Math.PI * radius;
  const progress = Math.min(1, used / LIMITS.postMax);
  const colour = over ? 'text-danger' : warn ? 'text-warning' : 'text-accent';
  return (
    <div className="flex items-center gap-2">
      {remaining > -10 && (
        <svg aria-hidden="true" width="30" height="30" viewBox="0 0 30 30" className={cn('-rotate-90', colour)}>
          <circle cx="15" cy="15" r={radius} fill="none" stroke="currentColor" strokeOpacity="0.25" strokeWidth="2" />
          <circle
            cx="15"
            cy="15"
            r={radius}
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeDasharray={circumference}
            strokeDashoffset={circumference * (1 - progress)}
            strokeLinecap="round"
          />
        </svg>
      )}
      {warn && (
        <span
          data-testid="characters-left"
          className={cn('min-w-6 text-[13px] tabular-nums', over ? 'text-danger' : 'text-muted')}
        >
          {remaining}
        </span>
      )}
    </div>
  );
}
