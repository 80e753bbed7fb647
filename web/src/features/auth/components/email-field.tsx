import { EMAIL_PATTERN } from '@pipit/contract';
import { TextField } from '../../../components/text-field.tsx';

export const isValidEmail = (email: string) => EMAIL_PATTERN.test(email.trim());

interface EmailFieldProps {
  value: string;
  onChange: (value: string) => void;
  disabled: boolean;
  /** Set after a submit with an empty field, so the message shows even before typing. */
  submitted: boolean;
  /** The server's word on the address (e.g. already taken). */
  error?: string | null;
}

/** The email input with the seed's live 'Invalid email' message. */
export function EmailField({ value, onChange, disabled, submitted, error }: EmailFieldProps) {
  const invalid = (value !== '' || submitted) && !isValidEmail(value);
  return (
    <TextField
      label="Email"
      type="email"
      inputMode="email"
      autoComplete="email"
      autoCapitalize="none"
      spellCheck={false}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      disabled={disabled}
      error={invalid ? 'Invalid email' : error}
    />
  );
}
