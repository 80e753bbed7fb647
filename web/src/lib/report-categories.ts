import type { ReportCategory } from '@pipit/contract';
import { m, t } from '../i18n/i18n.ts';

/** The report categories' names (the contract's REPORT_CATEGORIES labels), in the reader's language. */
const LABELS: Record<ReportCategory, string> = {
  spam: m('Spam'),
  harassment: m('Harassment or bullying'),
  hate: m('Hate'),
  violence: m('Violence or threats'),
  illegal: m('Something illegal'),
  other: m('Something else'),
};

/** "Spam", "Harassment or bullying", … */
export const reportCategoryLabel = (category: ReportCategory): string => t(LABELS[category] ?? category);
