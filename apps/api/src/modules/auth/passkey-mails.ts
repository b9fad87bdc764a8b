import type { MailMessage } from '../mail/mailer.ts';
import { noticeMail } from '../mail/templates.ts';

/** The security mail of a passkey added to or removed from a person's account (passkeys.service.ts). */
export function passkeyMail(email: string, firstName: string, name: string, added: boolean, securityUrl: string): MailMessage {
  return noticeMail(
    email,
    {
      subject: added ? 'A passkey was added to your Kestrel account' : 'A passkey was removed from your Kestrel account',
      headline: added ? 'New passkey added' : 'Passkey removed',
      name: firstName,
      intro: added
        ? [`The passkey “${name}” can now sign in to your Kestrel account without your password, and answers the second step after it.`]
        : [`The passkey “${name}” can no longer sign in to your Kestrel account.`],
      action: { label: 'Open My Account → Security', url: securityUrl },
      outro: ['If this was you, there is nothing else to do.', 'If it was not, reset your password at once and contact support.'],
      footer: `You get this security notice at the address you sign in with, ${email}. It cannot be switched off.`,
    },
    { template: added ? 'passkey_added' : 'passkey_removed' },
  );
}
