import type { FastifyBaseLogger } from 'fastify';
import { createTransport, type Transporter } from 'nodemailer';
import type { Config } from '../config.ts';

/** One message: plain text always (every client shows it), HTML optional. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Where outgoing mail goes: SMTP (`SMTP_URL`), or the server log when none is configured (development). */
export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/** SMTP through nodemailer: one pooled transport for the process. */
class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = createTransport(url, { pool: true, maxConnections: 2 } as never);
  }

  async send(mail: Mail): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...mail });
  }

  close(): void {
    this.transport.close();
  }
}

/** Without SMTP (development): each message is written to the server log, link and all, so it can be followed. */
class LogMailer implements Mailer {
  constructor(private readonly log: FastifyBaseLogger) {}

  async send(mail: Mail): Promise<void> {
    this.log.info(
      { mail: { to: mail.to, subject: mail.subject, text: mail.text } },
      `mail (no SMTP_URL): ${mail.subject}`,
    );
  }

  close(): void {}
}

export function createMailer(config: Config['mail'], log: FastifyBaseLogger): Mailer {
  return config.smtpUrl ? new SmtpMailer(config.smtpUrl, config.from) : new LogMailer(log);
}
