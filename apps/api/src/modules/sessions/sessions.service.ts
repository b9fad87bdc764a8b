// The sessions module's face to the other modules (lint keeps them out of its repository):
// opening and revoking a session, and a user's signed-in devices. The guard's cached lookup
// is wired in app.ts.
import Bowser from 'bowser';

export { createSession, liveSessionsOf, revokeAllSessionsOf, revokeOtherSessions, revokeSession, revokeSessionOf } from './sessions.repository.ts';

/** "Chrome 142 on Linux" from a User-Agent (bowser reads it); what is unknown is left out. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const { browser, os } = Bowser.parse(userAgent);
  const major = browser.version?.split('.')[0];
  const name = browser.name ? [browser.name, major].filter(Boolean).join(' ') : undefined;
  const system = os.name ? `on ${os.name}` : undefined;
  return [name, system].filter(Boolean).join(' ') || 'Unknown device';
}
