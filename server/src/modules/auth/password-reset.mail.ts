/**
 * The password-reset email in the language of the person who asked for it (docs/decisions.md "Languages"):
 * the web app sends its language as Accept-Language, a browser's own header does as well; the first of
 * its languages that Pipit speaks is used, else English. English is the text as it always was.
 */
import { type Language, preferredLanguage } from '../../lib/languages.ts';

export type MailLanguage = Language;
/** The language of the mail to someone whose Accept-Language is this (lib/languages.ts). */
export const mailLanguage = preferredLanguage;

/** The email's subject and text lines, `link` and `minutes` filled in. */
export function passwordResetMail(
  language: MailLanguage,
  link: string,
  minutes: number,
): { subject: string; text: string } {
  const texts: Record<MailLanguage, { subject: string; lines: string[] }> = {
    en: {
      subject: 'Set a new password for Pipit',
      lines: [
        'Someone (we hope you) asked to set a new password for your Pipit account.',
        '',
        `Open this link within ${minutes} minutes to choose one:`,
        link,
        '',
        'The link works once. If you did not ask for it, ignore this email: your password stays as it is.',
      ],
    },
    es: {
      subject: 'Establece una contraseña nueva para Pipit',
      lines: [
        'Alguien (esperamos que tú) pidió establecer una contraseña nueva para tu cuenta de Pipit.',
        '',
        `Abre este enlace en los próximos ${minutes} minutos para elegirla:`,
        link,
        '',
        'El enlace funciona una vez. Si no lo pediste, ignora este correo: tu contraseña sigue siendo la misma.',
      ],
    },
    ar: {
      subject: 'تعيين كلمة مرور جديدة لـ Pipit',
      lines: [
        'طلب أحدهم (نرجو أن تكون أنت) تعيين كلمة مرور جديدة لحسابك في Pipit.',
        '',
        `افتح هذا الرابط خلال ${minutes} دقيقة لتختار كلمة مرور:`,
        link,
        '',
        'يعمل الرابط مرة واحدة. إن لم تطلبه فتجاهل هذه الرسالة: تبقى كلمة مرورك كما هي.',
      ],
    },
  };
  const { subject, lines } = texts[language];
  return { subject, text: lines.join('\n') };
}
