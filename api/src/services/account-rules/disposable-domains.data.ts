// About a hundred of the most used disposable (throw-away) mail domains. Every entry is also in the
// disposable-email-domains 1.0.62 list (MIT); we keep a short list on purpose (spec §5: "roughly 100").

/** Disposable-mail domains refused at registration (lower case). */
export const DISPOSABLE_DOMAINS: readonly string[] = [
  'mailinator.com guerrillamail.com guerrillamail.net guerrillamail.org guerrillamail.biz',
  'guerrillamail.de guerrillamailblock.com grr.la sharklasers.com pokemail.net spam4.me',
  '10minutemail.com 10minutemail.net 20minutemail.com yopmail.com yopmail.fr yopmail.net nospam.ze.tc',
  'nomail.xl.cx mega.zik.dj speed.1s.fr trashmail.com trashmail.net trashmail.de trashmail.me',
  'trashmail.at trashmail.io temp-mail.org tempmailo.com tempail.com tempr.email tempinbox.com',
  'throwawaymail.com maildrop.cc mailnesia.com mailcatch.com mintemail.com mytemp.email mohmal.com',
  'getnada.com nada.email dispostable.com fakeinbox.com spamgourmet.com spambox.us spamex.com',
  'mailexpire.com meltmail.com mailmoat.com discard.email discardmail.com discardmail.de dropmail.me',
  'emailfake.com getairmail.com harakirimail.com incognitomail.org jetable.org mail-temp.com',
  'mailforspam.com mailinator.net mailinator2.com mailtothis.com mvrht.com mytrashmail.com',
  'nowmymail.com owlymail.com spamherelots.com spamthisplease.com tempemail.net tempemail.com',
  'temporaryemail.net temporaryinbox.com trash-mail.com trashmailer.com wegwerfmail.de wegwerfmail.net',
  'wegwerfmail.org einrot.com armyspy.com cuvox.de dayrep.com fleckens.hu gustr.com jourrapide.com',
  'rhyta.com superrito.com teleworm.us burnermail.io inboxkitten.com mailpoof.com tmail.ws tmpmail.org',
  'tmpmail.net mailsac.com anonbox.net byom.de spamdecoy.net mailnull.com kasmail.com deadaddress.com',
  'filzmail.com mailslite.com 33mail.com tempmail.de',
]
  .join(' ')
  .split(' ');
