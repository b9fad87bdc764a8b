import { screen } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';

/** The message under the field labelled `label` (its description whose id ends in `-error`), or null. */
export function fieldError(label: string): string | null {
  const ids = screen.getByLabelText(label).getAttribute('aria-describedby') ?? '';
  const errorId = ids.split(' ').find((id) => id.endsWith('-error'));
  return errorId ? (document.getElementById(errorId)?.textContent ?? null) : null;
}

/** Types `value` into the field labelled `label` in place of what it held ('' leaves it empty). */
export async function typeInto(user: UserEvent, label: string, value: string) {
  const input = screen.getByLabelText(label);
  await user.clear(input);
  if (value) await user.type(input, value);
}
