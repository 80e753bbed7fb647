import { type InputHTMLAttributes, type TextareaHTMLAttributes, useId } from 'react';
import { cn } from '../lib/cn.ts';

const fieldClass =
  'w-full rounded-md border border-line-strong bg-transparent px-3 py-2.5 text-[17px] text-fg placeholder:text-muted focus:border-accent focus:outline-none focus:ring-1 focus:ring-accent disabled:opacity-60';

interface FieldShellProps {
  id: string;
  label: string;
  error?: string | null;
  hint?: string;
  children: React.ReactNode;
}

function FieldShell({ id, label, error, hint, children }: FieldShellProps) {
  return (
    <div>
      <div className="mb-1 flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-muted">
          {label}
        </label>
        {hint && (
          <span className="text-xs text-muted" aria-hidden="true">
            {hint}
          </span>
        )}
      </div>
      {children}
      {/* Always rendered, so the message is announced when it appears and nothing jumps. */}
      <p id={`${id}-error`} aria-live="polite" className="mt-1 min-h-5 text-sm text-danger">
        {error}
      </p>
    </div>
  );
}

interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string | null;
  hint?: string;
}

export function TextField({ label, error, hint, className, ...props }: TextFieldProps) {
  const id = useId();
  return (
    <FieldShell id={id} label={label} error={error} hint={hint}>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-error`}
        className={cn(fieldClass, className)}
        {...props}
      />
    </FieldShell>
  );
}

interface TextAreaFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  error?: string | null;
  hint?: string;
}

export function TextAreaField({ label, error, hint, className, ...props }: TextAreaFieldProps) {
  const id = useId();
  return (
    <FieldShell id={id} label={label} error={error} hint={hint}>
      <textarea
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-error`}
        className={cn(fieldClass, 'resize-none', className)}
        {...props}
      />
    </FieldShell>
  );
}
