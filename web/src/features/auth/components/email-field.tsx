import { TextField } from '../../../components/text-field.tsx';
import { t } from '../../../i18n/i18n.ts';
import { emailProblem } from '../../../lib/field-rules.ts';

export const isValidEmail = (email: string) => emailProblem(email) === null;

interface EmailFieldProps {
  value: string;
  onChange: (value: string) => void;
  disabled: boolean;
  /** Set after a submit with an empty field, so the message shows even before typing. */
  submitted: boolean;
  /** The server's word on the address (e.g. already taken). */
  error?: string | null;
}

/**
 * The email input with the seed's live 'Invalid email' message. A text input (with the email
 * keyboard), not type="email": that one hands over `a@xn--b-tqa.de` for `a@bü.de`, so the check
 * would pass an address the person did not type; the pattern is checked on what was typed.
 */
export function EmailField({ value, onChange, disabled, submitted, error }: EmailFieldProps) {
  const problem = value !== '' || submitted ? emailProblem(value) : null;
  return (
    <TextField
      label={t('Email')}
      type="text"
      inputMode="email"
      autoComplete="email"
      autoCapitalize="none"
      autoCorrect="off"
      spellCheck={false}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      disabled={disabled}
      error={problem ?? error}
    />
  );
}
