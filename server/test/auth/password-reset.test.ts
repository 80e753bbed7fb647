/**
 * "Forgot password?": a link by email, through a real SMTP server started in this process (the
 * smtp-server package); each message is parsed (mailparser) and its link followed. Waits are for a
 * message to arrive or for the app's background jobs to finish, never for a guessed time.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { afterAll, describe, expect, it } from 'vitest';
import { insertUser, PASSWORD, signInWithPassword, TestClient, testConfig, useTestApp } from '../helpers/app.ts';
import { startMailbox } from '../helpers/mailbox.ts';
import { rowsOf } from '../helpers/social.ts';

const mailbox = await startMailbox();
afterAll(() => mailbox.close());

const NEW_PASSWORD = 'a fresh start at last 42';

function tokenOf(mail: ParsedMail): string {
  const match = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text ?? '');
  expect(match, mail.text).not.toBeNull();
  return match![1]!;
}

describe('password reset by email', () => {
  const ctx = useTestApp({ mail: { smtpUrl: mailbox.url, from: 'Pipit <no-reply@pipit.test>' } });

  async function member(username = 'rosa') {
    const user = await insertUser(ctx.db, { username });
    const client = await new TestClient(ctx).signInAs(user.id);
    return { user, client, email: `${username}@example.com` };
  }

  async function askFor(email: string) {
    const res = await new TestClient(ctx).withCsrf().post('/api/password-reset', { email });
    expect(res.statusCode, res.body).toBe(204);
    return res;
  }

  const confirm = (token: string, password = NEW_PASSWORD) =>
    new TestClient(ctx).withCsrf().post('/api/password-reset/confirm', { token, password });

  it('mails a single-use link; it sets the new password, ends every session, and the old password stops working', async () => {
    const rosa = await member();
    const other = await new TestClient(ctx).signInAs(rosa.user.id);
    await askFor('ROSA@example.com ');
    const mail = await mailbox.next(rosa.email);
    expect(mail.subject).toBe('Set a new password for Pipit');
    expect(mail.from?.value[0]).toMatchObject({ name: 'Pipit', address: 'no-reply@pipit.test' });
    const token = tokenOf(mail);
    expect(mail.text).toContain(`${ctx.config.publicUrl}/reset-password?token=${token}`);

    // Only the token's hash is stored.
    const stored = rowsOf<{ token_hash: string }>(await ctx.db.db.execute(sql`select token_hash from password_resets`));
    expect(stored.map((r) => r.token_hash)).toEqual([createHash('sha256').update(token).digest('hex')]);

    const res = await confirm(token);
    expect(res.statusCode, res.body).toBe(204);
    for (const client of [rosa.client, other]) expect((await client.get('/api/current')).statusCode).toBe(401);
    expect((await signInWithPassword(new TestClient(ctx), rosa.email, NEW_PASSWORD)).statusCode).toBe(200);
    const old = await signInWithPassword(new TestClient(ctx), rosa.email, PASSWORD);
    expect(old.json()).toMatchObject({ url: expect.stringContaining('error=CredentialsSignin') });

    // Once only.
    const again = await confirm(token, 'yet another passphrase 7');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'token' });
  });

  it("writes the email in the asker's language (Accept-Language, as the web app sends it), else in English", async () => {
    const cases: [string | undefined, string, string][] = [
      ['es-MX,es;q=0.9,en;q=0.8', 'Establece una contraseña nueva para Pipit', 'Abre este enlace'],
      ['ar', 'تعيين كلمة مرور جديدة لـ Pipit', 'افتح هذا الرابط'],
      ['fr-FR,fr;q=0.9,es;q=0.5', 'Establece una contraseña nueva para Pipit', 'Abre este enlace'],
      ['de, ar;q=0', 'Set a new password for Pipit', 'Open this link within'],
      [undefined, 'Set a new password for Pipit', 'Open this link within'],
    ];
    for (const [index, [language, subject, line]] of cases.entries()) {
      const who = await member(`lang${index}`);
      const res = await new TestClient(ctx)
        .withCsrf()
        .post(
          '/api/password-reset',
          { email: who.email },
          language ? { headers: { 'accept-language': language } } : {},
        );
      expect(res.statusCode, res.body).toBe(204);
      const mail = await mailbox.next(who.email);
      expect(mail.subject, language).toBe(subject);
      expect(mail.text, language).toContain(line);
      expect(mail.text).toContain(`${ctx.config.publicUrl}/reset-password?token=${tokenOf(mail)}`);
    }
  });

  it('answers the same for an email without an account, and sends nothing', async () => {
    await member();
    const known = await askFor('rosa@example.com');
    const unknown = await askFor('nobody@example.com');
    expect(unknown.body).toBe(known.body);
    expect(unknown.headers['content-length']).toBe(known.headers['content-length']);
    await ctx.app.services.jobs.drain();
    await mailbox.next('rosa@example.com');
    // Every job has finished: had anything gone to nobody@, it would be here.
    expect(mailbox.messages).toEqual([]);
    const rows = rowsOf<{ n: number }>(await ctx.db.db.execute(sql`select count(*)::int as n from password_resets`));
    expect(rows[0]!.n).toBe(1);
  });

  it('a link more than an hour old, or a made-up token, does nothing: 400 on token', async () => {
    const rosa = await member();
    await askFor(rosa.email);
    const token = tokenOf(await mailbox.next(rosa.email));
    await ctx.db.db.execute(sql`update password_resets set expires_at = now() - interval '1 second'`);
    for (const bad of [token, 'not-a-real-token', 'x'.repeat(200)]) {
      const res = await confirm(bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'token' });
    }
    expect((await rosa.client.get('/api/current')).statusCode).toBe(200);
  });

  it("a refused password (too short, common, the email) leaves the link working; a newer link spends the older one's", async () => {
    const rosa = await member();
    await askFor(rosa.email);
    const first = tokenOf(await mailbox.next(rosa.email));
    await askFor(rosa.email);
    const second = tokenOf(await mailbox.next(rosa.email));
    for (const password of ['short', 'password123', rosa.email]) {
      const res = await confirm(second, password);
      expect(res.statusCode, password).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_INPUT', field: 'password' });
    }
    expect((await confirm(second)).statusCode).toBe(204);
    expect((await confirm(first)).json()).toMatchObject({ field: 'token' });
  });

  it('refuses a body that is not an email or a token, with 400 on the field', async () => {
    const client = new TestClient(ctx).withCsrf();
    for (const [url, body, field] of [
      ['/api/password-reset', { email: 'not an email' }, 'email'],
      ['/api/password-reset', {}, 'email'],
      ['/api/password-reset', { email: 'a@example.com', extra: 1 }, undefined],
      ['/api/password-reset/confirm', { token: '', password: NEW_PASSWORD }, 'token'],
      ['/api/password-reset/confirm', { token: 'x'.repeat(201), password: NEW_PASSWORD }, 'token'],
      ['/api/password-reset/confirm', { token: 'abc' }, 'password'],
    ] as const) {
      const res = await client.post(url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('INVALID_INPUT');
      if (field) expect(res.json().field).toBe(field);
    }
  });
});

describe('password reset: rate limits', () => {
  const limits = testConfig().rateLimits;
  const ctx = useTestApp({
    mail: { smtpUrl: mailbox.url, from: 'Pipit <no-reply@pipit.test>' },
    rateLimits: {
      ...limits,
      passwordResetEmail: { max: 2, windowMs: 60 * 60_000 },
      passwordResetIp: { max: 4, windowMs: 60 * 60_000 },
    },
  });

  it('limits links per email address (whatever its case) and per IP: 429 RATE_LIMITED with Retry-After', async () => {
    await insertUser(ctx.db, { username: 'lim' });
    const client = new TestClient(ctx).withCsrf();
    const ask = (email: string) => client.post('/api/password-reset', { email });
    expect((await ask('lim@example.com')).statusCode).toBe(204);
    expect((await ask('LIM@example.com')).statusCode).toBe(204);
    const third = await ask('lim@example.com');
    expect(third.statusCode).toBe(429);
    expect(third.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    // Per IP: the fourth request from this address is the last one allowed, whatever the email.
    expect((await ask('someone@example.com')).statusCode).toBe(204);
    const fifth = await ask('else@example.com');
    expect(fifth.statusCode).toBe(429);
    const confirmAfter = await client.post('/api/password-reset/confirm', { token: 'abc', password: NEW_PASSWORD });
    expect(confirmAfter.statusCode).toBe(429);
    await ctx.app.services.jobs.drain();
    // Two links were sent (all jobs have finished), no more.
    await mailbox.next('lim@example.com');
    await mailbox.next('lim@example.com');
    expect(mailbox.messages).toEqual([]);
  });
});
