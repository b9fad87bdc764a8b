// The sessions module's face to the other modules (lint keeps them out of its repository):
// opening and revoking a session. The guard's cached lookup is wired in app.ts.
export { createSession, revokeSession } from './sessions.repository.ts';
