import { describe, expect, it } from 'vitest';
import { REFUSAL_CODES, renderProcessingMail } from './processing-mail.js';

const base = { projectName: 'Forêt <nord>', link: 'https://nuage.example/#/projects/7', details: ['why'] };

describe('renderProcessingMail', () => {
  it('asks to contact support on failure, in en-US and fr', () => {
    expect(renderProcessingMail({ ...base, outcome: 'failure' }, 'en-US').text).toContain('contact support');
    const fr = renderProcessingMail({ ...base, outcome: 'failure' }, 'fr');
    expect(fr.text).toContain('contacter le support');
    expect(fr.html).toContain('Forêt &#60;nord&#62;');
  });

  it('points a refusal at the buy page instead, in en-US and fr', () => {
    const buyLink = 'https://nuage.example/#/user/subscription/buy';
    const en = renderProcessingMail({ ...base, outcome: 'refused', buyLink }, 'en-US');
    expect(en.subject).toBe('The processing of "Forêt <nord>" did not start');
    expect(en.text).not.toContain('contact support');
    expect(en.links).toEqual([buyLink, base.link]);
    expect(en.html).toContain(`<a href="${buyLink}">Subscribe or buy credits</a>`);
    const fr = renderProcessingMail({ ...base, outcome: 'refused', buyLink }, 'fr-FR');
    expect(fr.subject).toBe("Le traitement de « Forêt <nord> » n'a pas démarré");
    expect(fr.html).toContain('S&#39;abonner ou acheter des crédits');
    expect(REFUSAL_CODES.has('INSUFFICIENT_CREDITS')).toBe(true);
    expect(REFUSAL_CODES.has('SUBSCRIPTION_SUSPENDED')).toBe(false);
  });
});
