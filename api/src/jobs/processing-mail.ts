import type { MailContent } from '../mail/mail.templates.js';

/** What the end-of-processing mail says. */
export interface ProcessingMail {
  outcome: 'success' | 'failure';
  projectName: string;
  /** Link to the project in the web app. */
  link: string;
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
    open: 'Open the project',
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
    open: 'Ouvrir le projet',
  },
} as const;

/**
 * The mail sent when a processing ends (spec §4): success with the products
 * made, or failure asking to contact support; en-US or fr.
 */
export function renderProcessingMail(mail: ProcessingMail, language: string): MailContent {
  const c = language.startsWith('fr') ? copy.fr : copy['en-US'];
  const { subject, intro } = c[mail.outcome](mail.projectName);
  const lines = mail.details.map((d) => `- ${d}`);
  const text = `${[intro, ...lines, mail.link, '— Nuage'].join('\n\n')}\n`;
  const html =
    `<!doctype html>\n<html><body style="font-family:sans-serif;line-height:1.5">\n<p>${escapeHtml(intro)}</p>\n` +
    (mail.details.length > 0 ? `<ul>${mail.details.map((d) => `<li>${escapeHtml(d)}</li>`).join('')}</ul>\n` : '') +
    `<p><a href="${escapeHtml(mail.link)}">${escapeHtml(c.open)}</a></p>\n<p>— Nuage</p>\n</body></html>\n`;
  return { subject, text, html, links: [mail.link] };
}
