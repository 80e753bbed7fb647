/**
 * Text a person writes must show something: a post or a name made only of invisible characters
 * (zero-width spaces, joiners, fillers) is refused, and so is a character carrying more than
 * MAX_COMBINING_MARKS accents ("Zalgo"). A password may not be the account's email or only spaces.
 * Each refusal is 400 INVALID_INPUT naming the field in plain words, and nothing is written.
 */
import { MAX_COMBINING_MARKS } from '@pipit/contract';
import { describe, expect, it } from 'vitest';
import { insertUser, PASSWORD, TestClient, useTestApp } from '../helpers/app.ts';
import { fingerprint } from '../security/support.ts';

const INVISIBLE = ['\u200B\u200B\u200B', ' \u200D \u2060 ', '\uFEFF\u200E', '\u3164\u3164', '\u2800', '\u0301\u0301'];
const zalgo = (marks: number) => `Z${'\u0301\u0316\u0324'.repeat(Math.ceil(marks / 3)).slice(0, marks)}algo`;

describe('visible text and sane passwords', () => {
  const ctx = useTestApp();
  const visitor = () => new TestClient(ctx).withCsrf();
  const register = (body: Record<string, string>) =>
    visitor().post('/api/register', {
      email: 'nova@example.com',
      password: PASSWORD,
      username: 'nova',
      name: 'Nova',
      ...body,
    });

  async function expectRefused(res: { statusCode: number; json(): unknown }, field: string, message: RegExp) {
    expect(res.statusCode).toBe(400);
    const body = res.json() as { code: string; issues: { field: string; message: string }[] };
    expect(body.code).toBe('INVALID_INPUT');
    expect(body.issues.find((i) => i.field === field)?.message).toMatch(message);
  }

  it.each(INVISIBLE)('a name of only invisible characters is refused at registration (%j)', async (name) => {
    const before = await fingerprint(ctx.db);
    await expectRefused(await register({ name }), 'name', /letters you can see|Name is required/);
    expect(await fingerprint(ctx.db)).toEqual(before);
  });

  it('a name with a visible letter among invisible ones is fine', async () => {
    expect((await register({ name: '\u200BNova\u200D' })).statusCode).toBe(201);
  });

  it('editing a name to invisible characters is refused and the name stays', async () => {
    const nova = await insertUser(ctx.db, { username: 'nova', email: 'nova@example.com', name: 'Nova' });
    const client = await new TestClient(ctx).signInAs(nova.id);
    await expectRefused(await client.patch('/api/edit', { name: '\u200B\u200B' }), 'name', /letters you can see/);
    expect((await client.get('/api/current')).json()).toMatchObject({ name: 'Nova' });
  });

  it.each(INVISIBLE)('a post of only invisible characters is refused (%j)', async (text) => {
    const nova = await insertUser(ctx.db, { username: 'nova', email: 'nova@example.com' });
    const client = await new TestClient(ctx).signInAs(nova.id);
    const before = await fingerprint(ctx.db);
    await expectRefused(await client.post('/api/posts', { text }), 'text', /something to read|must not be empty/);
    expect(await fingerprint(ctx.db)).toEqual(before);
  });

  it(`a character may carry ${MAX_COMBINING_MARKS} combining marks, not ${MAX_COMBINING_MARKS + 1}`, async () => {
    const nova = await insertUser(ctx.db, { username: 'nova', email: 'nova@example.com' });
    const client = await new TestClient(ctx).signInAs(nova.id);
    expect((await client.post('/api/posts', { text: zalgo(MAX_COMBINING_MARKS) })).statusCode).toBe(201);
    await expectRefused(
      await client.post('/api/posts', { text: zalgo(MAX_COMBINING_MARKS + 1) }),
      'text',
      /too many accent marks/,
    );
    await expectRefused(await client.post('/api/posts', { text: zalgo(3000) }), 'text', /too many accent marks/);
    await expectRefused(await client.patch('/api/edit', { name: zalgo(40) }), 'name', /too many accent marks/);
    await expectRefused(await client.patch('/api/edit', { bio: zalgo(40) }), 'bio', /too many accent marks/);
    // Real writing stacks a few and passes: Vietnamese, Thai, an emoji with a skin tone and a ZWJ family.
    const ok = await client.post('/api/posts', { text: 'Việt Nam · ที่นี่ · 👍🏽 · 👨‍👩‍👧' });
    expect(ok.statusCode).toBe(201);
  });

  it.each([
    ['the email itself', 'nova@example.com'],
    ['the email in other case and with spaces', '  NOVA@Example.com '],
  ])('a password that is %s is refused', async (_what, password) => {
    const before = await fingerprint(ctx.db);
    await expectRefused(await register({ password }), 'password', /Password must not be your email$/);
    expect(await fingerprint(ctx.db)).toEqual(before);
  });

  it('a password of only spaces is refused, and every problem is told at once', async () => {
    const res = await register({ password: ' '.repeat(12), name: '\u200B', username: 'no spaces' });
    await expectRefused(res, 'password', /Password must not be only spaces$/);
    const fields = (res.json() as { issues: { field: string }[] }).issues.map((i) => i.field).sort();
    expect(fields).toEqual(['name', 'password', 'username']);
  });
});
