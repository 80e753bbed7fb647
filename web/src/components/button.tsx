import type { ButtonHTMLAttributes } from 'react';
import { cn } from '../lib/cn.ts';

const variants = {
  primary: 'bg-accent-strong text-white hover:bg-accent-hover',
  secondary: 'border border-line-strong text-fg hover:bg-fg/10',
  danger: 'bg-danger-strong text-white hover:bg-danger-hover',
  ghost: 'text-fg hover:bg-fg/10',
} as const;

const sizes = {
  sm: 'h-8 px-4 text-sm',
  md: 'h-9 px-4 text-[15px]',
  lg: 'h-[52px] w-full px-8 text-[17px]',
} as const;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: keyof typeof variants;
  size?: keyof typeof sizes;
}

/** Fully rounded buttons: primary (accent), secondary (outlined), danger, ghost. */
export function Button({ variant = 'primary', size = 'md', className, type = 'button', ...props }: ButtonProps) {
  return (
    <button
      type={type}
      className={cn(
        'inline-flex shrink-0 items-center justify-center gap-2 whitespace-nowrap rounded-full font-bold transition-colors disabled:cursor-not-allowed disabled:opacity-50',
        variants[variant],
        sizes[size],
        className,
      )}
      {...props}
    />
  );
}
