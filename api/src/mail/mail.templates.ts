import type { Language } from '../services/account-rules/account.rules.js';

/** A rendered mail, before the sender and recipient are added. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
  /** Links the mail carries (logged when mail goes to the outbox folder). */
  links: string[];
}

/** The mails the accounts area sends, by template id. */
export type MailTemplate =
  | { id: 'activation'; name: string; link: string; hours: number }
  | { id: 'password-reset'; name: string; link: string; minutes: number }
  | { id: 'reset-no-account'; email: string; registerLink: string }
  | { id: 'activation-not-pending'; email: string; loginLink: string; forgotLink: string }
  | { id: 'login-failures'; name: string; failures: number; minutes: number; forgotLink: string };

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function html(paragraphs: string[], button?: { link: string; label: string }): string {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  const action = button
    ? `<p><a href="${escapeHtml(button.link)}" style="display:inline-block;padding:10px 18px;background:#1f6feb;color:#fff;text-decoration:none;border-radius:4px">${escapeHtml(button.label)}</a></p>\n<p style="font-size:12px;color:#666">${escapeHtml(button.link)}</p>`
    : '';
  return `<!doctype html>\n<html><body style="font-family:sans-serif;line-height:1.5">\n${body}\n${action}\n<p>— Nuage</p>\n</body></html>\n`;
}

function text(paragraphs: string[], link?: string): string {
  return `${[...paragraphs, ...(link ? [link] : []), '— Nuage'].join('\n\n')}\n`;
}

const copy = {
  'en-US': {
    hello: (name: string) => (name ? `Hello ${name},` : 'Hello,'),
    activation: {
      subject: 'Activate your Nuage account',
      body: (hours: number) => [
        'Welcome to Nuage. To activate your account, open the link below.',
        `The link works once and expires in ${hours} hours. If you did not sign up, ignore this mail.`,
      ],
      button: 'Activate my account',
    },
    reset: {
      subject: 'Reset your Nuage password',
      body: (minutes: number) => [
        'Someone (hopefully you) asked to reset the password of your Nuage account. To choose a new password, open the link below.',
        `The link works once and expires in ${minutes} minutes. If you did not ask for it, ignore this mail: your password stays as it is.`,
      ],
      button: 'Choose a new password',
    },
    resetNoAccount: {
      subject: 'Password reset request for Nuage',
      body: (email: string) => [
        `Someone (hopefully you) asked to reset the password of a Nuage account for ${email}, but there is no account with this email.`,
        'If it was you, you may have signed up with another address. You can also create an account:',
      ],
    },
    notPending: {
      subject: 'Your Nuage account',
      body: (email: string, loginLink: string, forgotLink: string) => [
        `Someone (hopefully you) asked for an activation link for ${email}, but no account with this email is waiting for activation.`,
        `If you already have an account, sign in at ${loginLink} (or reset your password at ${forgotLink}). Otherwise you can create one from the sign-in page.`,
      ],
    },
    loginFailures: {
      subject: 'Failed sign-ins to your Nuage account',
      body: (failures: number, minutes: number) => [
        `There were ${failures} failed attempts to sign in to your Nuage account in the last ${minutes} minutes.`,
        'If it was you, nothing to do: you can still sign in from your usual devices. If it was not, someone may be guessing your password: choose a new, strong one with the link below.',
      ],
      button: 'Choose a new password',
    },
  },
  fr: {
    hello: (name: string) => (name ? `Bonjour ${name},` : 'Bonjour,'),
    activation: {
      subject: 'Activez votre compte Nuage',
      body: (hours: number) => [
        'Bienvenue sur Nuage. Pour activer votre compte, ouvrez le lien ci-dessous.',
        `Le lien ne sert qu'une fois et expire dans ${hours} heures. Si vous ne vous êtes pas inscrit, ignorez ce message.`,
      ],
      button: 'Activer mon compte',
    },
    reset: {
      subject: 'Réinitialisez votre mot de passe Nuage',
      body: (minutes: number) => [
        "Quelqu'un (vous, espérons-le) a demandé à réinitialiser le mot de passe de votre compte Nuage. Pour choisir un nouveau mot de passe, ouvrez le lien ci-dessous.",
        `Le lien ne sert qu'une fois et expire dans ${minutes} minutes. Si vous n'avez rien demandé, ignorez ce message : votre mot de passe reste inchangé.`,
      ],
      button: 'Choisir un nouveau mot de passe',
    },
    resetNoAccount: {
      subject: 'Demande de réinitialisation de mot de passe Nuage',
      body: (email: string) => [
        `Quelqu'un (vous, espérons-le) a demandé à réinitialiser le mot de passe d'un compte Nuage pour ${email}, mais aucun compte n'existe avec cette adresse.`,
        "Si c'était vous, vous vous êtes peut-être inscrit avec une autre adresse. Vous pouvez aussi créer un compte :",
      ],
    },
    notPending: {
      subject: 'Votre compte Nuage',
      body: (email: string, loginLink: string, forgotLink: string) => [
        `Quelqu'un (vous, espérons-le) a demandé un lien d'activation pour ${email}, mais aucun compte avec cette adresse n'attend d'activation.`,
        `Si vous avez déjà un compte, connectez-vous sur ${loginLink} (ou réinitialisez votre mot de passe sur ${forgotLink}). Sinon, vous pouvez en créer un depuis la page de connexion.`,
      ],
    },
    loginFailures: {
      subject: 'Échecs de connexion à votre compte Nuage',
      body: (failures: number, minutes: number) => [
        `Il y a eu ${failures} tentatives de connexion échouées à votre compte Nuage ces ${minutes} dernières minutes.`,
        "Si c'était vous, rien à faire : vous pouvez toujours vous connecter depuis vos appareils habituels. Sinon, quelqu'un essaie peut-être de deviner votre mot de passe : choisissez-en un nouveau, solide, avec le lien ci-dessous.",
      ],
      button: 'Choisir un nouveau mot de passe',
    },
  },
} as const;

/**
 * Renders a mail in en-US or French.
 *
 * @example
 * renderMail({ id: 'password-reset', name: 'Ada', link: 'https://nuage.example/#/reset-password-token?token=…', minutes: 60 }, 'fr')
 */
export function renderMail(t: MailTemplate, language: Language): MailContent {
  const c = copy[language];
  switch (t.id) {
    case 'activation': {
      const paragraphs = [c.hello(t.name), ...c.activation.body(t.hours)];
      return {
        subject: c.activation.subject,
        text: text(paragraphs, t.link),
        html: html(paragraphs, { link: t.link, label: c.activation.button }),
        links: [t.link],
      };
    }
    case 'password-reset': {
      const paragraphs = [c.hello(t.name), ...c.reset.body(t.minutes)];
      return {
        subject: c.reset.subject,
        text: text(paragraphs, t.link),
        html: html(paragraphs, { link: t.link, label: c.reset.button }),
        links: [t.link],
      };
    }
    case 'reset-no-account': {
      const paragraphs = [c.hello(''), ...c.resetNoAccount.body(t.email)];
      return {
        subject: c.resetNoAccount.subject,
        text: text(paragraphs, t.registerLink),
        html: html([...paragraphs, t.registerLink]),
        links: [],
      };
    }
    case 'activation-not-pending': {
      const paragraphs = [c.hello(''), ...c.notPending.body(t.email, t.loginLink, t.forgotLink)];
      return { subject: c.notPending.subject, text: text(paragraphs), html: html(paragraphs), links: [] };
    }
    case 'login-failures': {
      const paragraphs = [c.hello(t.name), ...c.loginFailures.body(t.failures, t.minutes)];
      return {
        subject: c.loginFailures.subject,
        text: text(paragraphs, t.forgotLink),
        html: html(paragraphs, { link: t.forgotLink, label: c.loginFailures.button }),
        links: [t.forgotLink],
      };
    }
  }
}
