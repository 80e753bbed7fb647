import { bioField, emailField, LIMITS, nameField, passwordField, registerBody, usernameField } from '@pipit/contract';
import { describe, expect, it } from 'vitest';
import { bioProblem, emailProblem, nameProblem, passwordProblem, usernameProblem } from './field-rules.ts';

/** The contract's first message for a value, or null when the server would take it. */
function contractSays(schema: typeof nameField, value: string): string | null {
  const result = schema.safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? 'invalid');
}

const samples = {
  email: ['nia@example.com', ' nia@example.com ', '', 'nia@example', 'a@bü.de', 'a b@c.de', `${'a'.repeat(250)}@b.de`],
  name: [
    'Nia',
    '  Nia  ',
    '',
    '   ',
    'x'.repeat(LIMITS.nameMax),
    'x'.repeat(LIMITS.nameMax + 1),
    'Nia\tN',
    'Nia\nN',
    '\u200B\u200B',
    '\u3164',
    `Z${'\u0301'.repeat(8)}`,
    `Z${'\u0301'.repeat(9)}`,
    'Nguyễn',
  ],
  username: ['nia', 'nia_2', '', 'ni a', 'nía', 'x'.repeat(LIMITS.usernameMax + 1), 'admin', 'Settings'],
  password: [
    'correct horse',
    '',
    'short',
    '        ',
    ' correct horse ',
    'x'.repeat(LIMITS.passwordMax),
    'x'.repeat(LIMITS.passwordMax + 1),
  ],
  bio: ['', 'Birds and bikes.', 'line\nbreak', 'x'.repeat(LIMITS.bioMax + 1), 'bell\u0007', `Z${'\u0301'.repeat(9)}`],
};

/**
 * The browser checks the contract's rules without zod (field-rules.ts); this keeps the two in
 * step: for each sample the web says what the contract says. A rule added to the contract shows
 * up here as soon as a sample covers it.
 */
describe('the web’s field rules match the contract’s', () => {
  const cases = [
    ['email', emailField, emailProblem],
    ['name', nameField, nameProblem],
    ['username', usernameField, usernameProblem],
    ['password', passwordField, passwordProblem],
    ['bio', bioField, bioProblem],
  ] as const;
  for (const [field, schema, problem] of cases) {
    it(field, () => {
      for (const value of samples[field]) {
        expect(problem(value), JSON.stringify(value)).toBe(contractSays(schema, value));
      }
    });
  }
});

describe('the password is not the email (a rule across two fields)', () => {
  it('says what the contract says', () => {
    for (const [email, password] of [
      ['nia@example.com', 'nia@example.com'],
      ['nia@example.com', ' NIA@example.com '],
      ['nia@example.com', 'correct horse'],
    ] as const) {
      const result = registerBody.safeParse({ email, password, username: 'nia', name: 'Nia' });
      const contract = result.success
        ? null
        : (result.error.issues.find((i) => i.path[0] === 'password')?.message ?? null);
      expect(passwordProblem(password, email), `${email} / ${password}`).toBe(contract);
    }
  });
});
