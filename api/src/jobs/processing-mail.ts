import type { MailContent } from '../mail/mail.templates.js';

/** What the end-of-processing mail says. */
export interface ProcessingMail {
  /** `refused`: not run for want of credits or of an active subscription (no support needed). */
  outcome: 'success' | 'failure' | 'refused';
  projectName: string;
  /** Link to the project in the web app. */
  link: string;
  /** Link to the buy page (credits, subscription), for `refused`. */
  buyLink?: string;
  /** Assets made (success) or the failure message. */
  details: string[];
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const copy = {
  'en-US': {
    success: (name: string) => ({
      subject: `Your project "${name}" is processed`,
      intro: `The processing of your project "${name}" is finished. Its products are ready in the viewer:`,
    }),
    failure: (name: string) => ({
      subject: `The processing of "${name}" failed`,
      intro: `The processing of your project "${name}" failed. Please contact support, quoting the project name; we will look into it.`,
    }),
    refused: (name: string) => ({
      subject: `The processing of "${name}" did not start`,
      intro: `The processing of your project "${name}" did not start: your subscription or credits do not cover it. Subscribe or buy credits, then start the processing again:`,
    }),
    open: 'Open the project',
    buy: 'Subscribe or buy credits',
  },
  fr: {
    success: (name: string) => ({
      subject: `Votre projet « ${name} » est traité`,
      intro: `Le traitement de votre projet « ${name} » est terminé. Ses produits sont prêts dans la visionneuse :`,
    }),
    failure: (name: string) => ({
      subject: `Le traitement de « ${name} » a échoué`,
      intro: `Le traitement de votre projet « ${name} » a échoué. Merci de contacter le support en indiquant le nom du projet ; nous allons regarder.`,
    }),
    refused: (name: string) => ({
      subject: `Le traitement de « ${name} » n'a pas démarré`,
      intro: `Le traitement de votre projet « ${name} » n'a pas démarré : votre abonnement ou vos crédits ne le couvrent pas. Abonnez-vous ou achetez des crédits, puis relancez le traitement :`,
    }),
    open: 'Ouvrir le projet',
    buy: "S'abonner ou acheter des crédits",
  },
} as const;

/** Job failure codes that mean "not covered by the subscription or credits", not a fault. */
export const REFUSAL_CODES: ReadonlySet<string> = new Set(['INSUFFICIENT_CREDITS', 'SUBSCRIPTION_INACTIVE']);

/**
 * The mail sent when a processing ends (spec §4): success with the products
 * made, failure asking to contact support, or a refusal (credits,
 * subscription) pointing at the buy page; en-US or fr.
 */
export function renderProcessingMail(mail: ProcessingMail, language: string): MailContent {
  const c = language.startsWith('fr') ? copy.fr : copy['en-US'];
  const { subject, intro } = c[mail.outcome](mail.projectName);
  const lines = mail.details.map((d) => `- ${d}`);
  const buy = mail.outcome === 'refused' && mail.buyLink ? mail.buyLink : null;
  const text = `${[intro, ...lines, ...(buy ? [buy] : []), mail.link, '— Nuage'].join('\n\n')}\n`;
  const html =
    `<!doctype html>\n<html><body style="font-family:sans-serif;line-height:1.5">\n<p>${escapeHtml(intro)}</p>\n` +
    (mail.details.length > 0 ? `<ul>${mail.details.map((d) => `<li>${escapeHtml(d)}</li>`).join('')}</ul>\n` : '') +
    (buy ? `<p><a href="${escapeHtml(buy)}">${escapeHtml(c.buy)}</a></p>\n` : '') +
    `<p><a href="${escapeHtml(mail.link)}">${escapeHtml(c.open)}</a></p>\n<p>— Nuage</p>\n</body></html>\n`;
  return { subject, text, html, links: buy ? [buy, mail.link] : [mail.link] };
}
