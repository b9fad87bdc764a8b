/** The operator the e2e server is started with (see playwright.config.ts); only on its temporary database. */
export const E2E_OPERATOR = { email: 'e2e-operator@example.test', password: 'e2e-operator-secret' } as const;
