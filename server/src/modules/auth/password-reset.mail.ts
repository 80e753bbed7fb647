/**
 * The password-reset email in the language of the person who asked for it (docs/decisions.md "Languages"):
 * the web app sends its language as Accept-Language, a browser's own header does as well; the first of
 * its languages that Pipit speaks is used, else English. English is the text as it always was.
 */

export const MAIL_LANGUAGES = ['en', 'es', 'ar'] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];

/** The first language of an Accept-Language header that Pipit writes mail in (by preference order), else English. */
export function mailLanguage(acceptLanguage: string | undefined): MailLanguage {
  if (!acceptLanguage) return 'en';
  const ranked = acceptLanguage
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { language: tag.trim().toLowerCase().split('-')[0] ?? '', q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const found = ranked.find((entry) => (MAIL_LANGUAGES as readonly string[]).includes(entry.language));
  return (found?.language as MailLanguage | undefined) ?? 'en';
}

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
